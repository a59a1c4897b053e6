// SPDX-License-Identifier: MIT
// Polyglot book keys and look-up (format: the Polyglot book format description).
#include "book.h"

#include <errno.h>
#include <string.h>

#include "movegen.h"
#include "platform.h"

static const uint64_t RANDOM64[781] = {
#include "book_random.inc"
};

enum { RANDOM_CASTLE = 768, RANDOM_EP = 772, RANDOM_TURN = 780, ENTRY_SIZE = 16 };

Key book_key(const Position *pos)
{
    Key key = 0;
    for (Bitboard occ = pos_occupied(pos); occ;) {
        Square sq = pop_lsb(&occ);
        int piece = pos->board[sq];
        // Polyglot's kinds: black pawn 0, white pawn 1, black knight 2, ...
        int kind = 2 * piece_type(piece) + (piece_color(piece) == WHITE);
        key ^= RANDOM64[64 * kind + 8 * sq_rank(sq) + sq_file(sq)];
    }
    int castling = pos_state(pos)->castling;
    static const int RIGHTS[4] = {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO};
    for (int i = 0; i < 4; i++)
        if (castling & RIGHTS[i])
            key ^= RANDOM64[RANDOM_CASTLE + i];
    Square ep = pos_state(pos)->ep;
    if (ep != SQ_NONE) {
        // Hashed only when a pawn of the side to move stands beside the pushed pawn.
        Square pushed = pos->side == WHITE ? ep - 8 : ep + 8;
        Bitboard beside = (sq_file(pushed) > 0 ? sq_bb(pushed - 1) : 0) | (sq_file(pushed) < 7 ? sq_bb(pushed + 1) : 0);
        if (beside & pos_pieces(pos, pos->side, PAWN))
            key ^= RANDOM64[RANDOM_EP + sq_file(ep)];
    }
    if (pos->side == WHITE)
        key ^= RANDOM64[RANDOM_TURN];
    return key;
}

static uint64_t read_be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

void book_close(Book *book)
{
    if (book->f)
        fclose(book->f);
    book->f = NULL;
    book->entries = 0;
}

bool book_open(Book *book, const char *path, char *err, size_t err_size)
{
    book->f = NULL;
    book->entries = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open book '%s': %s", path, strerror(errno));
        return false;
    }
    uint8_t buf[ENTRY_SIZE * 4096];
    uint64_t entries = 0, last = 0;
    size_t got;
    size_t rest = 0; // bytes of an incomplete entry at the end of the last read
    while ((got = fread(buf + rest, 1, sizeof buf - rest, f)) > 0) {
        size_t have = rest + got, whole = have / ENTRY_SIZE * ENTRY_SIZE;
        for (size_t i = 0; i < whole; i += ENTRY_SIZE) {
            uint64_t key = read_be(buf + i, 8);
            if (entries && key < last) {
                snprintf(err, err_size, "book '%s' is not sorted by key (entry %llu)", path,
                         (unsigned long long)entries);
                fclose(f);
                return false;
            }
            last = key;
            entries++;
        }
        rest = have - whole;
        memmove(buf, buf + whole, rest);
    }
    if (rest || ferror(f)) {
        snprintf(err, err_size, "book '%s' is not a whole number of 16-byte entries", path);
        fclose(f);
        return false;
    }
    if (entries == 0) {
        snprintf(err, err_size, "book '%s' is empty", path);
        fclose(f);
        return false;
    }
    book->f = f;
    book->entries = entries;
    return true;
}

static bool read_entry(const Book *book, uint64_t i, uint8_t *e)
{
    return platform_seek(book->f, i * ENTRY_SIZE) == 0 && fread(e, ENTRY_SIZE, 1, book->f) == 1;
}

// The legal move a Polyglot move stands for in pos, or MOVE_NONE.
static Move decode(const Position *pos, unsigned pm)
{
    Square to = make_square((int)(pm & 7), (int)((pm >> 3) & 7));
    Square from = make_square((int)((pm >> 6) & 7), (int)((pm >> 9) & 7));
    int promo = (int)((pm >> 12) & 7); // 0 none, 1 knight .. 4 queen
    MoveList list;
    gen_moves(pos, &list, GEN_ALL);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (move_from(m) != from || move_to(m) != to)
            continue; // castling is king takes rook in both encodings
        if (move_is_promo(m) ? promo == move_promo_type(m) - KNIGHT + 1 : promo == 0)
            return m;
    }
    return MOVE_NONE;
}

int book_probe(const Book *book, const Position *pos, BookMove *out)
{
    if (!book->f)
        return 0;
    Key key = book_key(pos);
    // The first entry with this key: lower bound by binary search.
    uint64_t lo = 0, hi = book->entries;
    uint8_t e[ENTRY_SIZE];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (!read_entry(book, mid, e))
            return 0;
        if (read_be(e, 8) < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    int n = 0;
    for (uint64_t i = lo; i < book->entries && n < BOOK_MAX_MOVES; i++) {
        if (!read_entry(book, i, e) || read_be(e, 8) != key)
            break;
        Move m = decode(pos, (unsigned)read_be(e + 8, 2));
        if (m == MOVE_NONE)
            continue;
        int w = (int)read_be(e + 10, 2), j = n++;
        for (; j > 0 && out[j - 1].weight < w; j--) // stable: equal weights keep file order
            out[j] = out[j - 1];
        out[j] = (BookMove){m, w};
    }
    return n;
}

Move book_choose(const BookMove *moves, int n, bool best, uint64_t r)
{
    if (n <= 0)
        return MOVE_NONE;
    if (best)
        return moves[0].move;
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += (uint64_t)moves[i].weight;
    if (total == 0)
        return moves[r % (uint64_t)n].move;
    uint64_t x = r % total;
    for (int i = 0; i < n; i++) {
        if (x < (uint64_t)moves[i].weight)
            return moves[i].move;
        x -= (uint64_t)moves[i].weight;
    }
    return moves[n - 1].move;
}
