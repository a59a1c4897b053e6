// SPDX-License-Identifier: MIT
// Syzygy tablebase probing (syzygy.h). A table file holds, for one material balance, every
// position's value under an index computed from its piece squares (symmetries removed),
// compressed by recursive pairing and canonical Huffman codes in fixed-size blocks.
// docs/SYZYGY.md describes the layout this file reads; every offset read from a file is
// checked against the file's size, so a corrupt file fails its probes instead of crashing.
#define _POSIX_C_SOURCE 200809L
#include "syzygy.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitboard.h"
#include "movegen.h"
#include "platform.h"

enum { TB_WDL_FILE, TB_DTZ_FILE };

// Flags of one table part (PairsData.flags).
enum {
    PD_STM = 1,         // DTZ: the part stores black to move
    PD_MAPPED = 2,      // DTZ: values go through a map
    PD_WIN_PLIES = 4,   // DTZ: wins counted in plies, not moves
    PD_LOSS_PLIES = 8,  // DTZ: losses counted in plies
    PD_WIDE = 16,       // DTZ: 16-bit map entries
    PD_SINGLE = 128,    // every position has one value
};

// Probe outcomes inside this file.
enum { ST_FAIL, ST_OK, ST_CHANGE_STM, ST_ZEROING };

static const uint32_t TB_MAGIC[2] = {0x5d23e871, 0xa50c66d7};
static const char *const TB_EXT[2] = {".rtbw", ".rtbz"};
static const char PIECE_CHARS[] = "PNBRQK"; // by piece type

enum { MAX_DTZ = 1 << 18, MAX_SYMBOLS = 4096, MAX_CODE_LEN = 32 };

// One compressed part of a table: one side to move and, for tables with pawns, one file
// of the leading pawn.
typedef struct {
    uint8_t flags;
    uint8_t min_len;      // shortest code; a single-value part keeps its value here
    int n_len;            // code lengths min_len..min_len + n_len - 1
    uint64_t block_size;
    uint64_t span;        // positions between two sparse-index entries
    uint64_t n_sparse;
    uint64_t n_blocks;
    uint64_t n_block_len; // n_blocks plus padding
    int n_sym;
    const uint8_t *lowest_sym; // little-endian 16-bit, per code length
    const uint8_t *btree;      // 3 bytes per symbol: two 12-bit children
    const uint8_t *sparse;     // 6 bytes per entry: 32-bit block, 16-bit offset
    const uint8_t *block_len;  // 16-bit per block: values in it minus one
    const uint8_t *data;
    uint64_t base[MAX_CODE_LEN + 1]; // lowest code of each length, left-aligned in 64 bits
    int *symlen;                     // values a symbol stands for, minus one
    uint8_t pieces[TB_MAX_PIECES];   // piece codes in encoding order
    uint8_t group_len[TB_MAX_PIECES + 1];
    uint64_t group_idx[TB_MAX_PIECES + 1];
    uint32_t map_off[4];             // DTZ: offset in the map of each outcome's values
} PairsData;

typedef struct {
    atomic_int state; // 0 not tried, 1 ready, -1 missing or corrupt
    MappedFile file;
    const uint8_t *map; // DTZ value maps
    uint64_t map_len;
    PairsData pd[2][4]; // [side to move][file of the leading pawn]
} TbFile;

typedef struct {
    Key key, key2; // material with the name's first side white, and black
    char name[2 * TB_MAX_PIECES + 2];
    int n_pieces;
    bool has_pawns;
    bool unique;    // some side has a lone piece other than its king
    int pawns[2];   // pawns of the leading colour, then of the other
    int dir[2];     // offset in Syzygy.path of the directory holding .rtbw, .rtbz; -1 none
    TbFile file[2];
} TbEntry;

enum { HASH_SLOTS = 1 << 13 };

struct Syzygy {
    char *path;      // the directories, each ended by a NUL
    size_t path_len;
    TbEntry *entries;
    int n_entries, cap;
    int slot[HASH_SLOTS]; // entry index + 1 by material key, 0 empty
    Key slot_key[HASH_SLOTS];
    int largest;
    pthread_mutex_t lock; // taken to map a file
    OutputFn out;
    void *out_ctx;
};

/* ---------------------------------------------------------------- index tables */

static int binomial[7][64];      // [k][n]: ways to choose k of n
static int map_pawns[64];        // squares a2-h7 by distance from the edge files
static int lead_pawn_idx[6][64]; // [leading pawns][square]
static int lead_pawns_size[6][4]; // [leading pawns][file a-d]
static int map_b1h1h7[64];       // squares below the a1-h8 diagonal to 0..27
static int map_a1d1d4[64];       // the a1-d1-d4 triangle to 0..9, diagonal last
static int map_kk[10][64];       // two kings, the first in the triangle, to 0..461
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static int off_diag(Square s) { return sq_rank(s) - sq_file(s); }
static Square flip_diag(Square s) { return ((s >> 3) | (s << 3)) & 63; }
static int edge_distance(int file) { return file < 7 - file ? file : 7 - file; }

static void init_tables(void)
{
    int code = 0;
    for (Square s = 0; s < 64; s++)
        if (off_diag(s) < 0)
            map_b1h1h7[s] = code++;

    code = 0;
    Square diagonal[4];
    int n_diag = 0;
    for (Square s = 0; s <= 27; s++) {
        if (sq_file(s) > 3)
            continue;
        if (off_diag(s) < 0)
            map_a1d1d4[s] = code++;
        else if (off_diag(s) == 0)
            diagonal[n_diag++] = s;
    }
    for (int i = 0; i < n_diag; i++)
        map_a1d1d4[diagonal[i]] = code++;

    // Kings: the first in the triangle; when it is on the diagonal the second is not
    // above it; both on the diagonal come last.
    int both[10 * 64][2];
    int n_both = 0;
    code = 0;
    for (int idx = 0; idx < 10; idx++) {
        for (Square s1 = 0; s1 <= 27; s1++) {
            if (sq_file(s1) > 3 || (off_diag(s1) > 0) || map_a1d1d4[s1] != idx || (idx == 0 && s1 != 1))
                continue;
            for (Square s2 = 0; s2 < 64; s2++) {
                int df = abs(sq_file(s1) - sq_file(s2)), dr = abs(sq_rank(s1) - sq_rank(s2));
                if (df <= 1 && dr <= 1) // the same square or adjacent kings
                    continue;
                if (!off_diag(s1) && off_diag(s2) > 0)
                    continue;
                if (!off_diag(s1) && !off_diag(s2)) {
                    both[n_both][0] = idx;
                    both[n_both++][1] = s2;
                } else {
                    map_kk[idx][s2] = code++;
                }
            }
        }
    }
    for (int i = 0; i < n_both; i++)
        map_kk[both[i][0]][both[i][1]] = code++;

    binomial[0][0] = 1;
    for (int n = 1; n < 64; n++)
        for (int k = 0; k < 7 && k <= n; k++)
            binomial[k][n] = (k > 0 ? binomial[k - 1][n - 1] : 0) + (k < n ? binomial[k][n - 1] : 0);

    int available = 47;
    for (int lead = 1; lead <= 5; lead++) {
        for (int f = 0; f < 4; f++) {
            int idx = 0;
            for (int r = 1; r <= 6; r++) {
                Square sq = make_square(f, r);
                if (lead == 1) {
                    map_pawns[sq] = available--;
                    map_pawns[sq ^ 7] = available--;
                }
                lead_pawn_idx[lead][sq] = idx;
                idx += binomial[lead - 1][map_pawns[sq]];
            }
            lead_pawns_size[lead][f] = idx;
        }
    }
}

/* ---------------------------------------------------------------- registry */

static int tb_code(int piece) { return piece_type(piece) + 1 + 8 * piece_color(piece); }

static Key material_key(int count[2][6])
{
    Key k = 0;
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < 6; t++)
            k |= (Key)count[c][t] << (4 * (c * 6 + t));
    return k;
}

static Key pos_material_key(const Position *pos)
{
    int count[2][6];
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < 6; t++)
            count[c][t] = popcount(pos_pieces(pos, c, t));
    return material_key(count);
}

static TbEntry *find_entry(Syzygy *tb, Key key)
{
    for (unsigned i = (unsigned)(key * 0x9E3779B97F4A7C15ULL >> 51) & (HASH_SLOTS - 1);; i = (i + 1) & (HASH_SLOTS - 1)) {
        if (!tb->slot[i])
            return NULL;
        if (tb->slot_key[i] == key)
            return &tb->entries[tb->slot[i] - 1];
    }
}

static void insert_key(Syzygy *tb, Key key, int index)
{
    unsigned i = (unsigned)(key * 0x9E3779B97F4A7C15ULL >> 51) & (HASH_SLOTS - 1);
    while (tb->slot[i] && tb->slot_key[i] != key)
        i = (i + 1) & (HASH_SLOTS - 1);
    tb->slot[i] = index + 1;
    tb->slot_key[i] = key;
}

#ifdef _WIN32
static const char PATH_SEP = ';';
#else
static const char PATH_SEP = ':';
#endif

// Writes dir/name+ext into buf; false if dir is empty or the path does not fit.
static bool table_path(const char *dir, const char *name, const char *ext, char *buf, size_t size)
{
    return *dir && (size_t)snprintf(buf, size, "%s/%s%s", dir, name, ext) < size;
}

// The offset in tb->path (separators replaced by NULs) of the first directory that holds
// the file name + ext; -1 if none does.
static int find_table(const Syzygy *tb, const char *name, const char *ext)
{
    char path[4096];
    for (const char *d = tb->path; d < tb->path + tb->path_len; d += strlen(d) + 1) {
        if (!table_path(d, name, ext, path, sizeof path))
            continue;
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            return (int)(d - tb->path);
        }
    }
    return -1;
}

// Registers the table named by the two sides' pieces (types, strongest first), if a
// directory holds its WDL or DTZ file.
static void add_table(Syzygy *tb, const int *white, int nw, const int *black, int nb)
{
    char name[2 * TB_MAX_PIECES + 2], *p = name;
    int count[2][6] = {{0}};
    *p++ = 'K';
    for (int i = 0; i < nw; i++) {
        *p++ = PIECE_CHARS[white[i]];
        count[WHITE][white[i]]++;
    }
    *p++ = 'v';
    *p++ = 'K';
    for (int i = 0; i < nb; i++) {
        *p++ = PIECE_CHARS[black[i]];
        count[BLACK][black[i]]++;
    }
    *p = '\0';
    count[WHITE][KING] = count[BLACK][KING] = 1;
    int dir[2] = {find_table(tb, name, TB_EXT[0]), find_table(tb, name, TB_EXT[1])};
    if (dir[0] < 0 && dir[1] < 0)
        return;
    if (tb->n_entries == tb->cap) {
        int cap = tb->cap ? 2 * tb->cap : 64;
        TbEntry *e = realloc(tb->entries, (size_t)cap * sizeof *e);
        if (!e)
            return;
        tb->entries = e;
        tb->cap = cap;
    }
    TbEntry *e = &tb->entries[tb->n_entries];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->key = material_key(count);
    int swapped[2][6];
    memcpy(swapped[0], count[1], sizeof swapped[0]);
    memcpy(swapped[1], count[0], sizeof swapped[1]);
    e->key2 = material_key(swapped);
    e->n_pieces = nw + nb + 2;
    e->has_pawns = count[WHITE][PAWN] + count[BLACK][PAWN] > 0;
    for (int c = 0; c < 2; c++)
        for (int t = PAWN; t < KING; t++)
            if (count[c][t] == 1)
                e->unique = true;
    // The leading colour: the one with fewer pawns (white if equal), for compression.
    bool white_leads = !count[BLACK][PAWN] || (count[WHITE][PAWN] && count[BLACK][PAWN] >= count[WHITE][PAWN]);
    e->pawns[0] = count[white_leads ? WHITE : BLACK][PAWN];
    e->pawns[1] = count[white_leads ? BLACK : WHITE][PAWN];
    e->dir[0] = dir[0];
    e->dir[1] = dir[1];
    if (find_entry(tb, e->key)) // a duplicate name (KQvKR and KRvKQ both present)
        return;
    insert_key(tb, e->key, tb->n_entries);
    insert_key(tb, e->key2, tb->n_entries);
    tb->n_entries++;
    if (e->n_pieces > tb->largest)
        tb->largest = e->n_pieces;
}

// Piece lists of up to TB_MAX_PIECES - 2 pieces besides the king, strongest first.
typedef struct {
    int n;
    int type[TB_MAX_PIECES - 2];
} PieceList;

static int piece_lists(PieceList *out, PieceList cur, int from)
{
    int n = 0;
    out[n++] = cur;
    if (cur.n == TB_MAX_PIECES - 2)
        return n;
    for (int t = from; t >= PAWN; t--) {
        PieceList next = cur;
        next.type[next.n++] = t;
        n += piece_lists(out + n, next, t);
    }
    return n;
}

static void unmap_all(Syzygy *tb)
{
    for (int i = 0; i < tb->n_entries; i++) {
        for (int type = 0; type < 2; type++) {
            TbFile *f = &tb->entries[i].file[type];
            platform_unmap_file(&f->file);
            for (int s = 0; s < 2; s++)
                for (int fl = 0; fl < 4; fl++)
                    free(f->pd[s][fl].symlen);
        }
    }
}

Syzygy *tb_create(OutputFn out, void *out_ctx)
{
    pthread_once(&tables_once, init_tables);
    Syzygy *tb = calloc(1, sizeof *tb);
    if (!tb)
        return NULL;
    tb->path = calloc(1, 1);
    tb->path_len = 0;
    if (!tb->path || pthread_mutex_init(&tb->lock, NULL) != 0) {
        free(tb->path);
        free(tb);
        return NULL;
    }
    tb->out = out;
    tb->out_ctx = out_ctx;
    return tb;
}

void tb_free(Syzygy *tb)
{
    if (!tb)
        return;
    unmap_all(tb);
    free(tb->entries);
    free(tb->path);
    pthread_mutex_destroy(&tb->lock);
    free(tb);
}

int tb_set_path(Syzygy *tb, const char *path, int *n_wdl, int *n_dtz)
{
    unmap_all(tb);
    tb->n_entries = 0;
    tb->largest = 0;
    memset(tb->slot, 0, sizeof tb->slot);
    *n_wdl = *n_dtz = 0;
    char *copy = malloc(strlen(path) + 1);
    if (!copy)
        return 0;
    strcpy(copy, path);
    free(tb->path);
    tb->path = copy;
    tb->path_len = strcmp(path, "<empty>") ? strlen(path) : 0;
    for (char *c = tb->path; *c; c++)
        if (*c == PATH_SEP)
            *c = '\0';
    if (tb->path_len == 0)
        return 0;
    // Every pair of sides in either order: a table is named strongest side first.
    PieceList lists[252];
    int n_lists = piece_lists(lists, (PieceList){0, {0}}, QUEEN);
    for (int i = 0; i < n_lists; i++)
        for (int j = 0; j < n_lists; j++)
            if (lists[i].n + lists[j].n > 0 && lists[i].n + lists[j].n <= TB_MAX_PIECES - 2)
                add_table(tb, lists[i].type, lists[i].n, lists[j].type, lists[j].n);
    for (int i = 0; i < tb->n_entries; i++) {
        *n_wdl += tb->entries[i].dir[0] >= 0;
        *n_dtz += tb->entries[i].dir[1] >= 0;
    }
    return tb->largest;
}

int tb_largest(const Syzygy *tb) { return tb->largest; }

/* ---------------------------------------------------------------- reading a file */

static unsigned read_le16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }
static uint32_t read_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint32_t read_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

// A cursor over a mapped file that refuses to move past its end.
typedef struct {
    const uint8_t *base, *p, *end;
    bool bad;
} Reader;

// Claims n bytes at the cursor: their start, or NULL (and the reader marked bad).
static const uint8_t *take(Reader *r, uint64_t n)
{
    if (r->bad || n > (uint64_t)(r->end - r->p)) {
        r->bad = true;
        return NULL;
    }
    const uint8_t *at = r->p;
    r->p += n;
    return at;
}

static void align(Reader *r, uint64_t to)
{
    uint64_t off = (uint64_t)(r->p - r->base), pad = (to - off % to) % to;
    take(r, pad);
}

static int btree_left(const PairsData *d, int s)
{
    const uint8_t *b = d->btree + 3 * s;
    return ((b[1] & 0xF) << 8) | b[0];
}
static int btree_right(const PairsData *d, int s)
{
    const uint8_t *b = d->btree + 3 * s;
    return (b[2] << 4) | (b[1] >> 4);
}

// Values symbol s stands for, minus one, computed from its children; -1 when the tree
// is corrupt (a child out of range or a cycle).
static int symbol_length(PairsData *d, int s, uint8_t *state, int depth)
{
    if (state[s] == 2)
        return d->symlen[s];
    if (state[s] == 1 || depth > MAX_SYMBOLS)
        return -1;
    state[s] = 1;
    int len = 0;
    if (btree_right(d, s) != 0xFFF) {
        int l = btree_left(d, s), r = btree_right(d, s);
        if (l >= d->n_sym || r >= d->n_sym)
            return -1;
        int ll = symbol_length(d, l, state, depth + 1), lr = symbol_length(d, r, state, depth + 1);
        if (ll < 0 || lr < 0 || ll + lr + 1 > MAX_DTZ)
            return -1;
        len = ll + lr + 1;
    }
    d->symlen[s] = len;
    state[s] = 2;
    return len;
}

// Reads a part's sizes and code tables; tb_size is the number of positions it indexes.
static bool read_sizes(Reader *r, PairsData *d, uint64_t tb_size)
{
    const uint8_t *p = take(r, 1);
    if (!p)
        return false;
    d->flags = p[0];
    if (d->flags & PD_SINGLE) {
        if (!(p = take(r, 1)))
            return false;
        d->min_len = p[0];
        return true;
    }
    if (!(p = take(r, 9)))
        return false;
    if (p[0] < 3 || p[0] > 30 || p[1] > 40)
        return false;
    d->block_size = 1ULL << p[0];
    d->span = 1ULL << p[1];
    d->n_sparse = (tb_size + d->span - 1) / d->span;
    d->n_blocks = read_le32(p + 3);
    d->n_block_len = d->n_blocks + p[2];
    int max_len = p[7];
    d->min_len = p[8];
    if (d->min_len < 1 || max_len < d->min_len || max_len > MAX_CODE_LEN)
        return false;
    d->n_len = max_len - d->min_len + 1;
    if (!(d->lowest_sym = take(r, 2 * (uint64_t)d->n_len)))
        return false;
    // Canonical codes: longer codes have lower values, so base[i] >= base[i + 1]; a code
    // of length i (left-aligned in 64 bits) lies between base[i] and base[i - 1].
    d->base[d->n_len - 1] = 0;
    for (int i = d->n_len - 2; i >= 0; i--)
        d->base[i] = (d->base[i + 1] + read_le16(d->lowest_sym + 2 * i) - read_le16(d->lowest_sym + 2 * (i + 1))) / 2;
    for (int i = 0; i < d->n_len; i++)
        d->base[i] <<= 64 - i - d->min_len;
    if (!(p = take(r, 2)))
        return false;
    d->n_sym = (int)read_le16(p);
    if (d->n_sym == 0 || d->n_sym > MAX_SYMBOLS || !(d->btree = take(r, 3 * (uint64_t)d->n_sym + (d->n_sym & 1))))
        return false;
    d->symlen = malloc((size_t)d->n_sym * sizeof *d->symlen);
    uint8_t *state = calloc((size_t)d->n_sym, 1);
    bool ok = d->symlen && state;
    for (int s = 0; ok && s < d->n_sym; s++)
        ok = symbol_length(d, s, state, 0) >= 0;
    free(state);
    return ok;
}

// Groups of like pieces in encoding order, and each group's multiplier in the index
// (order[0]: where the leading group goes, order[1]: the other side's pawns).
static bool set_groups(const TbEntry *e, PairsData *d, const int order[2], int file)
{
    int n = 0, first_len = e->has_pawns ? 0 : e->unique ? 3 : 2;
    d->group_len[0] = 1;
    for (int i = 1; i < e->n_pieces; i++) {
        if (--first_len > 0 || d->pieces[i] == d->pieces[i - 1])
            d->group_len[n]++;
        else
            d->group_len[++n] = 1;
    }
    d->group_len[++n] = 0;
    bool pp = e->has_pawns && e->pawns[1];
    int next = pp ? 2 : 1;
    int free_squares = 64 - d->group_len[0] - (pp ? d->group_len[1] : 0);
    uint64_t idx = 1;
    bool set0 = false, set1 = !pp;
    for (int k = 0; next < n || k == order[0] || k == order[1]; k++) {
        if (k > 16)
            return false;
        if (k == order[0]) {
            d->group_idx[0] = idx;
            set0 = true;
            if (e->has_pawns) {
                if (d->group_len[0] > 5)
                    return false;
                idx *= (uint64_t)lead_pawns_size[d->group_len[0]][file];
            } else {
                idx *= e->unique ? 31332 : 462;
            }
        } else if (k == order[1]) {
            d->group_idx[1] = idx;
            set1 = true;
            idx *= (uint64_t)binomial[d->group_len[1]][48 - d->group_len[0]];
        } else {
            if (free_squares < 0 || d->group_len[next] > 6)
                return false;
            d->group_idx[next] = idx;
            idx *= (uint64_t)binomial[d->group_len[next]][free_squares];
            free_squares -= d->group_len[next++];
        }
    }
    d->group_idx[n] = idx;
    return set0 && set1 && idx > 0;
}

// The DTZ value maps, per file: for each outcome a count then that many values.
static bool read_dtz_map(Reader *r, TbFile *tf, int files)
{
    tf->map = r->p;
    for (int f = 0; f < files; f++) {
        PairsData *d = &tf->pd[0][f];
        if (!(d->flags & PD_MAPPED))
            continue;
        bool wide = d->flags & PD_WIDE;
        if (wide)
            align(r, 2);
        for (int i = 0; i < 4; i++) {
            const uint8_t *p = take(r, wide ? 2 : 1);
            if (!p)
                return false;
            d->map_off[i] = (uint32_t)(p - tf->map);
            unsigned count = wide ? read_le16(p) : p[0];
            if (!take(r, (uint64_t)count * (wide ? 2 : 1)))
                return false;
        }
    }
    tf->map_len = (uint64_t)(r->p - tf->map);
    align(r, 2);
    return !r->bad;
}

// Checks that a part lists exactly the table's pieces.
static bool pieces_match(const TbEntry *e, const PairsData *d)
{
    int count[16] = {0};
    for (int i = 0; i < e->n_pieces; i++)
        count[d->pieces[i] & 15]++;
    int want[16] = {0};
    const char *s = e->name;
    for (int side = 0; *s; s++) {
        if (*s == 'v') {
            side = 1;
            continue;
        }
        want[(int)(strchr(PIECE_CHARS, *s) - PIECE_CHARS) + 1 + 8 * side]++;
    }
    return !memcmp(count, want, sizeof count);
}

// Sets up a table's parts from its mapped file.
static bool read_table(const TbEntry *e, TbFile *tf, int type)
{
    Reader r = {tf->file.data, tf->file.data, tf->file.data + tf->file.size, false};
    const uint8_t *p = take(&r, 5);
    if (!p || read_le32(p) != TB_MAGIC[type])
        return false;
    bool split = p[4] & 1, pawnful = (p[4] & 2) != 0;
    if (pawnful != e->has_pawns || (type == TB_WDL_FILE && split != (e->key != e->key2)))
        return false;
    int sides = type == TB_WDL_FILE && e->key != e->key2 ? 2 : 1;
    int files = e->has_pawns ? 4 : 1;
    bool pp = e->has_pawns && e->pawns[1];
    for (int f = 0; f < files; f++) {
        if (!(p = take(&r, 1 + pp)))
            return false;
        int order[2][2] = {{p[0] & 0xF, pp ? p[1] & 0xF : 0xF}, {p[0] >> 4, pp ? p[1] >> 4 : 0xF}};
        if (!(p = take(&r, (uint64_t)e->n_pieces)))
            return false;
        for (int i = 0; i < sides; i++) {
            PairsData *d = &tf->pd[i][f];
            for (int k = 0; k < e->n_pieces; k++)
                d->pieces[k] = i ? p[k] >> 4 : p[k] & 0xF;
            if (!pieces_match(e, d) || !set_groups(e, d, order[i], f))
                return false;
        }
    }
    align(&r, 2);
    for (int f = 0; f < files; f++) {
        for (int i = 0; i < sides; i++) {
            PairsData *d = &tf->pd[i][f];
            int last = 0;
            while (d->group_len[last])
                last++;
            if (!read_sizes(&r, d, d->group_idx[last]))
                return false;
        }
    }
    if (type == TB_DTZ_FILE && !read_dtz_map(&r, tf, files))
        return false;
    for (int f = 0; f < files; f++)
        for (int i = 0; i < sides; i++)
            if (!(tf->pd[i][f].flags & PD_SINGLE) && !(tf->pd[i][f].sparse = take(&r, 6 * tf->pd[i][f].n_sparse)))
                return false;
    for (int f = 0; f < files; f++)
        for (int i = 0; i < sides; i++)
            if (!(tf->pd[i][f].flags & PD_SINGLE) && !(tf->pd[i][f].block_len = take(&r, 2 * tf->pd[i][f].n_block_len)))
                return false;
    for (int f = 0; f < files; f++) {
        for (int i = 0; i < sides; i++) {
            PairsData *d = &tf->pd[i][f];
            if (d->flags & PD_SINGLE)
                continue;
            align(&r, 64);
            if (d->n_blocks > UINT64_MAX / d->block_size || !(d->data = take(&r, d->n_blocks * d->block_size)))
                return false;
        }
    }
    return !r.bad;
}

// Maps and reads a table file on its first use; false if it is missing or corrupt.
static bool ensure_loaded(Syzygy *tb, TbEntry *e, int type)
{
    TbFile *tf = &e->file[type];
    int state = atomic_load_explicit(&tf->state, memory_order_acquire);
    if (state)
        return state > 0;
    pthread_mutex_lock(&tb->lock);
    state = atomic_load_explicit(&tf->state, memory_order_relaxed);
    if (!state) {
        char path[4096], line[4400];
        bool ok = false;
        bool named = e->dir[type] >= 0
            && table_path(tb->path + e->dir[type], e->name, TB_EXT[type], path, sizeof path);
        if (named && platform_map_file(path, &tf->file)) {
            ok = read_table(e, tf, type);
            if (!ok) {
                snprintf(line, sizeof line, "info string Syzygy table %s is corrupt; not used", path);
                if (tb->out)
                    tb->out(tb->out_ctx, line);
                for (int s = 0; s < 2; s++)
                    for (int f = 0; f < 4; f++) {
                        free(tf->pd[s][f].symlen);
                        tf->pd[s][f].symlen = NULL;
                    }
                platform_unmap_file(&tf->file);
            }
        } else if (e->dir[type] >= 0 && tb->out) {
            snprintf(line, sizeof line, "info string Syzygy table %s%s cannot be read; not used", e->name, TB_EXT[type]);
            tb->out(tb->out_ctx, line);
        }
        state = ok ? 1 : -1;
        atomic_store_explicit(&tf->state, state, memory_order_release);
    }
    pthread_mutex_unlock(&tb->lock);
    return state > 0;
}

/* ---------------------------------------------------------------- decoding */

// The value at index idx of a part; false when the data do not decode (corrupt).
static bool decompress(const PairsData *d, uint64_t idx, int *value)
{
    if (d->flags & PD_SINGLE) {
        *value = d->min_len;
        return true;
    }
    // The sparse index gives a block and an offset for the middle of each span of
    // positions; walk from there to the block that holds idx.
    uint64_t k = idx / d->span;
    if (k >= d->n_sparse)
        return false;
    const uint8_t *se = d->sparse + 6 * k;
    uint64_t block = read_le32(se);
    int64_t offset = (int64_t)read_le16(se + 4) + (int64_t)(idx % d->span) - (int64_t)(d->span / 2);
    for (;;) {
        if (block >= d->n_block_len)
            return false;
        if (offset < 0) {
            if (block == 0)
                return false;
            block--;
            offset += (int64_t)read_le16(d->block_len + 2 * block) + 1;
        } else if (offset > (int64_t)read_le16(d->block_len + 2 * block)) {
            offset -= (int64_t)read_le16(d->block_len + 2 * block) + 1;
            block++;
        } else {
            break;
        }
    }
    if (block >= d->n_blocks)
        return false;
    // Decode symbols from the block's start until the one covering offset.
    const uint8_t *ptr = d->data + block * d->block_size, *end = ptr + d->block_size;
    uint64_t buf = (uint64_t)read_be32(ptr) << 32 | read_be32(ptr + 4);
    ptr += 8;
    int bits = 64, sym;
    for (;;) {
        int len = 0;
        while (buf < d->base[len])
            len++;
        sym = (int)((buf - d->base[len]) >> (64 - len - d->min_len)) + (int)read_le16(d->lowest_sym + 2 * len);
        if (sym >= d->n_sym)
            return false;
        if (offset < d->symlen[sym] + 1)
            break;
        offset -= d->symlen[sym] + 1;
        len += d->min_len;
        buf <<= len;
        bits -= len;
        if (bits <= 32) {
            // The buffer is refilled ahead of need, so it may reach past the block's
            // end: zeros then. A symbol that needs them means a corrupt block.
            if (ptr >= end + 8)
                return false;
            bits += 32;
            if (ptr < end)
                buf |= (uint64_t)read_be32(ptr) << (64 - bits);
            ptr += 4;
        }
    }
    // Expand the symbol down its pair tree to the single value at offset.
    for (int steps = 0; d->symlen[sym]; steps++) {
        int left = btree_left(d, sym);
        if (steps > MAX_SYMBOLS)
            return false;
        if (offset < d->symlen[left] + 1) {
            sym = left;
        } else {
            offset -= d->symlen[left] + 1;
            sym = btree_right(d, sym);
        }
    }
    *value = btree_left(d, sym);
    return true;
}

static bool pawns_before(Square a, Square b) { return map_pawns[a] < map_pawns[b]; }

// Looks up pos in a table (WDL, or DTZ given the position's outcome wdl): the stored
// value, converted; *status ST_FAIL, ST_CHANGE_STM (the DTZ table holds the other side
// to move) or ST_OK.
// The index of the leading group of a table without pawns: the pieces moved below rank
// 5, the first piece of the group off the diagonal below it, then the two kings (and a
// third piece where the table's leading group is unique).
static uint64_t pawnless_index(const TbEntry *e, const PairsData *d, Square *sq, int size)
{
    if (sq_rank(sq[0]) > 3)
        for (int i = 0; i < size; i++)
            sq[i] ^= 56;
    for (int i = 0; i < d->group_len[0]; i++) {
        if (!off_diag(sq[i]))
            continue;
        if (off_diag(sq[i]) > 0)
            for (int j = i; j < size; j++)
                sq[j] = flip_diag(sq[j]);
        break;
    }
    if (e->unique) {
        int adj1 = sq[1] > sq[0], adj2 = (sq[2] > sq[0]) + (sq[2] > sq[1]);
        if (off_diag(sq[0]))
            return ((uint64_t)map_a1d1d4[sq[0]] * 63 + (uint64_t)(sq[1] - adj1)) * 62 + (uint64_t)(sq[2] - adj2);
        if (off_diag(sq[1]))
            return (6 * 63 + (uint64_t)sq_rank(sq[0]) * 28 + (uint64_t)map_b1h1h7[sq[1]]) * 62 + (uint64_t)(sq[2] - adj2);
        if (off_diag(sq[2]))
            return 6 * 63 * 62 + 4 * 28 * 62 + (uint64_t)sq_rank(sq[0]) * 7 * 28
                   + (uint64_t)(sq_rank(sq[1]) - adj1) * 28 + (uint64_t)map_b1h1h7[sq[2]];
        return 6 * 63 * 62 + 4 * 28 * 62 + 4 * 7 * 28 + (uint64_t)sq_rank(sq[0]) * 7 * 6
               + (uint64_t)(sq_rank(sq[1]) - adj1) * 6 + (uint64_t)(sq_rank(sq[2]) - adj2);
    }
    return (uint64_t)map_kk[map_a1d1d4[sq[0]]][sq[1]];
}

// The index of a position in a table's (or a DTZ file's) pieces, from the squares in
// the table's piece order (sq[0..size), the leading pawns first: lead of them), which it
// mirrors and reorders as the index needs.
static uint64_t table_index(const TbEntry *e, const PairsData *d, Square *sq, int size, int lead)
{
    // Mirror so that the leading piece is on files a-d.
    if (sq_file(sq[0]) > 3)
        for (int i = 0; i < size; i++)
            sq[i] ^= 7;
    uint64_t idx;
    if (e->has_pawns) {
        idx = (uint64_t)lead_pawn_idx[lead][sq[0]];
        for (int i = 2; i < lead; i++) { // the other leading pawns, by map_pawns
            Square s = sq[i];
            int j = i;
            for (; j > 1 && pawns_before(s, sq[j - 1]); j--)
                sq[j] = sq[j - 1];
            sq[j] = s;
        }
        for (int i = 1; i < lead; i++)
            idx += (uint64_t)binomial[i][map_pawns[sq[i]]];
    } else {
        idx = pawnless_index(e, d, sq, size);
    }
    idx *= d->group_idx[0];
    // The remaining groups: each a combination of squares, counted among the squares the
    // earlier groups leave free (the other side's pawns among a2-h7).
    Square *g = sq + d->group_len[0];
    bool remaining_pawns = e->has_pawns && e->pawns[1];
    for (int next = 1; d->group_len[next]; next++) {
        int len = d->group_len[next];
        for (int i = 1; i < len; i++) {
            Square s = g[i];
            int j = i;
            for (; j > 0 && g[j - 1] > s; j--)
                g[j] = g[j - 1];
            g[j] = s;
        }
        uint64_t n = 0;
        for (int i = 0; i < len; i++) {
            int adjust = 0;
            for (Square *q = sq; q < g; q++)
                adjust += g[i] > *q;
            n += (uint64_t)binomial[i + 1][g[i] - adjust - 8 * remaining_pawns];
        }
        remaining_pawns = false;
        idx += n * d->group_idx[next];
        g += len;
    }
    return idx;
}

// A DTZ file's value as plies: through the file's map (where it has one), then from
// moves to plies where the table counts moves; *status stays ST_OK unless the map is
// out of range.
static int dtz_plies(const TbFile *tf, const PairsData *d, int value, int wdl, int *status)
{
    static const int wdl_map[5] = {1, 3, 0, 2, 0};
    if (d->flags & PD_MAPPED) {
        bool wide = d->flags & PD_WIDE;
        uint64_t at = (uint64_t)d->map_off[wdl_map[wdl + 2]] + (wide ? 2 + 2 * (uint64_t)value : 1 + (uint64_t)value);
        if (at + (wide ? 2 : 1) > tf->map_len) {
            *status = ST_FAIL;
            return 0;
        }
        value = wide ? (int)read_le16(tf->map + at) : tf->map[at];
    }
    if ((wdl == TB_WIN && !(d->flags & PD_WIN_PLIES)) || (wdl == TB_LOSS && !(d->flags & PD_LOSS_PLIES))
        || wdl == TB_CURSED_WIN || wdl == TB_BLESSED_LOSS)
        value *= 2;
    return value + 1;
}

static int probe_table(Syzygy *tb, const Position *pos, int type, int wdl, int *status)
{
    Bitboard occ = pos_occupied(pos);
    if (popcount(occ) == 2)
        return TB_DRAW; // king against king
    Key key = pos_material_key(pos);
    TbEntry *e = find_entry(tb, key);
    if (!e || !ensure_loaded(tb, e, type)) {
        *status = ST_FAIL;
        return 0;
    }
    TbFile *tf = &e->file[type];
    // Tables hold the name's first side as white, and a symmetric table white to move
    // only: otherwise swap the colours and mirror the ranks.
    bool flip = (e->key == e->key2 && pos->side == BLACK) || key != e->key;
    int flip_color = flip ? 8 : 0, flip_sq = flip ? 56 : 0;
    int stm = flip ^ pos->side;
    Square sq[TB_MAX_PIECES] = {0};
    int pc[TB_MAX_PIECES] = {0};
    int size = 0, lead = 0, file = 0;
    Bitboard lead_pawns = 0;
    if (e->has_pawns) {
        int code = tf->pd[0][0].pieces[0] ^ flip_color;
        lead_pawns = pos_pieces(pos, code >> 3, PAWN);
        for (Bitboard b = lead_pawns; b;)
            sq[size++] = pop_lsb(&b) ^ flip_sq;
        lead = size;
        int best = 0;
        for (int i = 1; i < lead; i++)
            if (pawns_before(sq[best], sq[i]))
                best = i;
        Square t = sq[0];
        sq[0] = sq[best];
        sq[best] = t;
        file = edge_distance(sq_file(sq[0]));
    }
    if (type == TB_DTZ_FILE && (tf->pd[0][file].flags & PD_STM) != stm && !(e->key == e->key2 && !e->has_pawns)) {
        *status = ST_CHANGE_STM;
        return 0;
    }
    for (Bitboard b = occ ^ lead_pawns; b;) {
        Square s = pop_lsb(&b);
        sq[size] = s ^ flip_sq;
        pc[size++] = tb_code(pos->board[s]) ^ flip_color;
    }
    const PairsData *d = &tf->pd[type == TB_WDL_FILE ? stm : 0][file];
    // The pieces in the order the table lists them.
    for (int i = lead; i < size - 1; i++) {
        for (int j = i + 1; j < size; j++) {
            if (d->pieces[i] == pc[j]) {
                int tp = pc[i];
                pc[i] = pc[j];
                pc[j] = tp;
                Square ts = sq[i];
                sq[i] = sq[j];
                sq[j] = ts;
                break;
            }
        }
    }
    uint64_t idx = table_index(e, d, sq, size, lead);
    int value;
    if (!decompress(d, idx, &value)) {
        *status = ST_FAIL;
        return 0;
    }
    *status = ST_OK;
    if (type == TB_WDL_FILE) {
        if (value > 4) {
            *status = ST_FAIL;
            return 0;
        }
        return value - 2;
    }
    return dtz_plies(tf, d, value, wdl, status);
}

/* ---------------------------------------------------------------- probing */

static bool is_zeroing(const Position *pos, Move m)
{
    return move_is_capture(m) || piece_type(pos->board[move_from(m)]) == PAWN;
}

// The outcome for the side to move, from the captures (and with zeroing, the pawn moves)
// and the table: the table may store any value where a capture wins (or, for DTZ, a
// zeroing move wins) and a loss where a capture draws. *status ST_ZEROING when the best
// move is a zeroing one, whose DTZ the table does not hold.
static int search_wdl(Syzygy *tb, Position *pos, bool zeroing, int *status)
{
    MoveList list;
    gen_moves(pos, &list, zeroing ? GEN_ALL : GEN_NOISY);
    int best = TB_LOSS, n = 0;
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (!move_is_capture(m) && (!zeroing || piece_type(pos->board[move_from(m)]) != PAWN))
            continue;
        n++;
        pos_make_move(pos, m);
        int v = -search_wdl(tb, pos, false, status);
        pos_unmake_move(pos, m);
        if (*status == ST_FAIL)
            return 0;
        if (v > best) {
            best = v;
            if (v >= TB_WIN) {
                *status = ST_ZEROING;
                return v;
            }
        }
    }
    // With every legal move searched the table is not needed (nor right: it does not
    // know en passant).
    int total = zeroing ? list.count : n ? gen_count_legal(pos) : 0;
    bool all_searched = n && n == total;
    int v = best;
    if (!all_searched) {
        v = probe_table(tb, pos, TB_WDL_FILE, 0, status);
        if (*status == ST_FAIL)
            return 0;
    }
    if (best >= v) {
        *status = best > TB_DRAW || all_searched ? ST_ZEROING : ST_OK;
        return best;
    }
    *status = ST_OK;
    return v;
}

bool tb_probe_wdl(Syzygy *tb, Position *pos, int *wdl)
{
    int status = ST_OK;
    *wdl = search_wdl(tb, pos, false, &status);
    return status != ST_FAIL;
}

// The DTZ of a position whose best move zeroes the counter, by its outcome.
static int dtz_before_zeroing(int wdl)
{
    static const int dtz[5] = {-1, -101, 0, 101, 1};
    return dtz[wdl + 2];
}

static int sign_of(int v) { return (v > 0) - (v < 0); }

static int probe_dtz(Syzygy *tb, Position *pos, int *status)
{
    *status = ST_OK;
    int wdl = search_wdl(tb, pos, true, status);
    if (*status == ST_FAIL || wdl == TB_DRAW)
        return 0;
    if (*status == ST_ZEROING)
        return dtz_before_zeroing(wdl);
    int dtz = probe_table(tb, pos, TB_DTZ_FILE, wdl, status);
    if (*status == ST_FAIL)
        return 0;
    if (*status != ST_CHANGE_STM)
        return (dtz + 100 * (wdl == TB_BLESSED_LOSS || wdl == TB_CURSED_WIN)) * sign_of(wdl);
    // The table holds the other side to move: one ply deeper, the best of the moves.
    int best = 0xFFFF;
    MoveList list;
    gen_moves(pos, &list, GEN_ALL);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        bool zero = is_zeroing(pos, m);
        pos_make_move(pos, m);
        // A zeroing move's DTZ counts from before it, so only its outcome is needed.
        int st = ST_OK;
        int v = zero ? -dtz_before_zeroing(search_wdl(tb, pos, false, &st)) : -probe_dtz(tb, pos, &st);
        if (v == 1 && pos_in_check(pos) && gen_is_checkmate(pos))
            best = 1; // a mate
        if (!zero)
            v += sign_of(v);
        if (v < best && sign_of(v) == sign_of(wdl))
            best = v;
        pos_unmake_move(pos, m);
        if (st == ST_FAIL) {
            *status = ST_FAIL;
            return 0;
        }
    }
    *status = ST_OK;
    return best == 0xFFFF ? -1 : best;
}

bool tb_probe_dtz(Syzygy *tb, Position *pos, int *dtz)
{
    int status = ST_OK;
    *dtz = probe_dtz(tb, pos, &status);
    return status != ST_FAIL;
}

bool tb_rank_root_moves(Syzygy *tb, Position *pos, const Move *moves, int n, bool dtz, bool rule50,
                        int *rank, Score *score)
{
    int cnt50 = pos_state(pos)->rule50;
    bool rep = pos_has_repeated(pos);
    int bound = rule50 ? MAX_DTZ - 100 : 1;
    for (int i = 0; i < n; i++) {
        int status = ST_OK, v;
        pos_make_move(pos, moves[i]);
        if (!dtz) {
            int wdl = -search_wdl(tb, pos, false, &status);
            if (!rule50)
                wdl = wdl > 0 ? TB_WIN : wdl < 0 ? TB_LOSS : 0;
            static const int wdl_rank[5] = {-MAX_DTZ, -MAX_DTZ + 101, 0, MAX_DTZ - 101, MAX_DTZ};
            v = wdl_rank[wdl + 2];
        } else {
            if (pos_state(pos)->rule50 == 0) {
                v = dtz_before_zeroing(-search_wdl(tb, pos, false, &status));
            } else if (pos_is_fifty_move_draw(pos) || pos_is_repetition(pos, 1)) {
                v = 0;
            } else {
                v = -probe_dtz(tb, pos, &status);
                v += sign_of(v);
            }
            if (v == 2 && pos_in_check(pos) && gen_is_checkmate(pos))
                v = 1;
            // Wins within the fifty-move rule rank alike; beyond it, and for losses, the
            // distance counts.
            v = v > 0 ? (v + cnt50 <= 99 && !rep ? MAX_DTZ : MAX_DTZ - (v + cnt50))
              : v < 0 ? (-v * 2 + cnt50 < 100 ? -MAX_DTZ : -MAX_DTZ + (-v + cnt50))
                      : 0;
        }
        pos_unmake_move(pos, moves[i]);
        if (status == ST_FAIL)
            return false;
        rank[i] = v;
        // Cursed wins (and blessed losses) get 1..49 cp, growing as the real win nears.
        score[i] = v >= bound ? SCORE_TB_WIN - 1
                 : v > 0      ? ((v - (MAX_DTZ - 200) > 3 ? v - (MAX_DTZ - 200) : 3) * 100) / 200
                 : v == 0     ? SCORE_DRAW
                 : v > -bound ? ((v + (MAX_DTZ - 200) < -3 ? v + (MAX_DTZ - 200) : -3) * 100) / 200
                              : -SCORE_TB_WIN + 1;
    }
    return true;
}
