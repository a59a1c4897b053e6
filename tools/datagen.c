// SPDX-License-Identifier: MIT
// Self-play data for tools/tune: Outpost plays fast games against itself from the
// opening book plus a few random moves, and writes every quiet position of each game
// (side to move not in check, best move neither capture nor promotion, no mate score)
// labelled with the game's result for white: "<FEN> [1.0]", "[0.5]" or "[0.0]".
// Usage: datagen BOOK.epd OUT GAMES [NODES_PER_MOVE [SEED]]   (appends to OUT)
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "movegen.h"
#include "psqt.h"
#include "search.h"
#include "zobrist.h"

enum {
    MAX_BOOK = 100000,
    RANDOM_PLIES_MIN = 1,     // random moves after the book line, for variety
    RANDOM_PLIES_SPREAD = 4,  // .. up to MIN + SPREAD - 1
    MAX_GAME = 400,           // plies; longer games are called drawn
    WIN_SCORE = 1000,         // a side this far ahead (cp) ..
    WIN_PLIES = 6,            // .. for this many plies in a row has won
    DRAW_SCORE = 10,          // both sides within this ..
    DRAW_PLIES = 16,          // .. for this many plies, after DRAW_FROM, is a draw
    DRAW_FROM = 80,
};

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void discard(void *ctx, const char *line)
{
    (void)ctx;
    (void)line;
}

// The book's FENs (first four fields of each EPD line); returns how many.
static int load_book(const char *path, char (*fens)[FEN_MAX])
{
    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        exit(1);
    }
    char line[512];
    int n = 0;
    while (n < MAX_BOOK && fgets(line, sizeof line, in)) {
        char f[4][100];
        if (sscanf(line, "%99s %99s %99s %99s", f[0], f[1], f[2], f[3]) == 4)
            snprintf(fens[n++], FEN_MAX, "%s %s %s %s", f[0], f[1], f[2], f[3]);
    }
    fclose(in);
    return n;
}

// Sets pos to a random book position plus a few random legal moves. False if the
// random moves ended the game.
static bool random_start(Position *pos, char (*book)[FEN_MAX], int n_book)
{
    char err[128];
    if (!pos_set_fen(pos, book[rng_next() % (uint64_t)n_book], false, err, sizeof err)) {
        fprintf(stderr, "book: %s\n", err);
        exit(1);
    }
    int plies = RANDOM_PLIES_MIN + (int)(rng_next() % RANDOM_PLIES_SPREAD);
    for (int i = 0; i < plies; i++) {
        MoveList list;
        gen_moves(pos, &list, GEN_ALL);
        if (list.count == 0)
            return false;
        pos_make_move(pos, list.moves[rng_next() % (uint64_t)list.count]);
    }
    return gen_count_legal(pos) > 0;
}

// Plays one game from t->pos; writes its quiet positions to out. Returns the result
// for white in half points (2 win, 1 draw, 0 loss).
static int play_game(SearchThread *t, uint64_t nodes, FILE *out, int *written)
{
    static char fens[MAX_GAME][FEN_MAX];
    int n = 0, win_streak = 0, draw_streak = 0, result = 1;
    for (int ply = 0;; ply++) {
        Position *pos = &t->pos;
        if (gen_count_legal(pos) == 0) {
            result = !pos_in_check(pos) ? 1 : pos->side == WHITE ? 0 : 2;
            break;
        }
        if (ply >= MAX_GAME || pos_is_fifty_move_draw(pos) || pos_is_insufficient_material(pos)
            || pos_is_repetition(pos, 0))
            break;
        limits_init(&t->limits);
        t->limits.nodes = nodes;
        atomic_store(&t->ctl->stop, false);
        atomic_store(&t->ctl->start_ms, tm_now());
        search_run(t);
        Move m = t->best_move;
        Score s = t->completed[0].score;
        bool mate = s >= SCORE_MATE_IN_MAX || s <= SCORE_MATED_IN_MAX;
        if (!mate && !pos_in_check(pos) && !move_is_noisy(m))
            pos_to_fen(pos, fens[n++]);
        int white = pos->side == WHITE ? s : -s;
        win_streak = white >= WIN_SCORE ? (win_streak > 0 ? win_streak + 1 : 1)
                   : white <= -WIN_SCORE ? (win_streak < 0 ? win_streak - 1 : -1) : 0;
        if (win_streak >= WIN_PLIES || win_streak <= -WIN_PLIES) {
            result = win_streak > 0 ? 2 : 0;
            break;
        }
        draw_streak = ply >= DRAW_FROM && abs(white) <= DRAW_SCORE ? draw_streak + 1 : 0;
        if (draw_streak >= DRAW_PLIES)
            break;
        pos_make_move(pos, m);
    }
    static const char *const LABEL[3] = {"[0.0]", "[0.5]", "[1.0]"};
    for (int i = 0; i < n; i++)
        fprintf(out, "%s %s\n", fens[i], LABEL[result]);
    fflush(out);
    *written += n;
    return result;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s BOOK.epd OUT GAMES [NODES_PER_MOVE [SEED]]\n", argv[0]);
        return 2;
    }
    long games = atol(argv[3]);
    uint64_t nodes = argc > 4 ? strtoull(argv[4], NULL, 10) : 5000;
    rng_state = argc > 5 ? strtoull(argv[5], NULL, 10) * 0x9E3779B97F4A7C15ull + 1 : 1;
    attacks_init();
    zobrist_init();
    psqt_init();
    static char book[MAX_BOOK][FEN_MAX];
    int n_book = load_book(argv[1], book);
    FILE *out = fopen(argv[2], "a");
    SearchThread *t = calloc(1, sizeof *t);
    static TT tt;
    static SearchControl ctl;
    if (!n_book || !out || !t || !tt_resize(&tt, 16)) {
        fprintf(stderr, "datagen: no book, output or memory\n");
        return 1;
    }
    search_init(t);
    t->tt = &tt;
    t->ctl = &ctl;
    t->opts = (SearchOptions){.multipv = 1, .print_bestmove = false};
    t->out = discard;
    int written = 0, score[3] = {0, 0, 0};
    for (long g = 0; g < games; g++) {
        if (!random_start(&t->pos, book, n_book)) {
            g--;
            continue;
        }
        tt_clear(&tt);
        search_clear(t);
        score[play_game(t, nodes, out, &written)]++;
        if ((g + 1) % 100 == 0 || g + 1 == games)
            fprintf(stderr, "games %ld  positions %d  white +%d =%d -%d\n", g + 1, written, score[2], score[1], score[0]);
    }
    fclose(out);
    tt_free(&tt);
    free(t);
    return 0;
}
