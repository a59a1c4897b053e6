// SPDX-License-Identifier: MIT
// Transposition table: buckets of three entries, replacement by depth and age, mate
// scores stored relative to the node. One table per engine, passed to the search.
#ifndef OUTPOST_TT_H
#define OUTPOST_TT_H

#include <stdatomic.h>
#include <stddef.h>

#include "types.h"

enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

/*
 * An entry as the search reads it (a snapshot; the table stores it packed, below):
 *   key16   low 16 bits of the Zobrist key (the bucket index uses the high 32)
 *   move    best or refuting move, MOVE_NONE if none
 *   score   search score, mate scores relative to this node (see tt_score_to)
 *   eval    static evaluation, SCORE_NONE when in check
 *   depth   draft + DEPTH_OFFSET so quiescence entries (depth <= 0) fit in a byte
 *   genbound  generation (upper 6 bits) and bound (lower 2 bits)
 */
typedef struct {
    uint16_t key16;
    Move move;
    int16_t score;
    int16_t eval;
    uint8_t depth;
    uint8_t genbound;
} TTEntry;

enum { TT_BUCKET_SIZE = 3, TT_DEPTH_OFFSET = 8 };

/*
 * Stored, an entry is two atomic words that search threads read and write without locks
 * (relaxed order): data = move | score << 16 | eval << 32 | depth << 48 | genbound << 56,
 * and check = key16 ^ (data folded to 16 bits). A reader that meets a half-written entry
 * (data of one write, check of another) sees a key that does not match, and the search
 * checks a TT move's legality before playing it, so a torn or foreign entry is never
 * trusted as this position's.
 */
typedef struct {
    _Atomic uint64_t data[TT_BUCKET_SIZE];
    _Atomic uint16_t check[TT_BUCKET_SIZE];
    uint16_t padding; // buckets are 32 bytes, two per cache line
} TTBucket;

// Where an entry lives, for tt_store.
typedef struct {
    TTBucket *bucket;
    int index;
} TTSlot;

typedef struct {
    TTBucket *buckets;
    size_t count;
    uint8_t generation; // advanced by 4 each search, bound bits stay clear
} TT;

// Resizing and clearing need the table to themselves: no search may run meanwhile.
// (Re)allocates the table to `mb` megabytes and clears it. On failure returns false and
// keeps the old table. The old memory is freed.
bool tt_resize(TT *tt, size_t mb);
void tt_free(TT *tt);
void tt_clear(TT *tt);
// Marks the start of a new search, so older entries age.
void tt_new_search(TT *tt);

// Looks key up. True if found, with the entry in *entry; *slot is where to store for this
// key either way (the match, or the entry worth least in the bucket). Safe while other
// threads probe and store.
bool tt_probe(TT *tt, Key key, TTEntry *entry, TTSlot *slot);

// The bucket a key lives in: multiply-shift maps the key's high 32 bits onto [0, count)
// without a division.
static inline TTBucket *tt_bucket(const TT *tt, Key key)
{
    return &tt->buckets[((key >> 32) * (uint64_t)tt->count) >> 32];
}

// Asks the CPU to start loading key's bucket into the cache, so that the probe of a node
// just made finds it there (the first miss of a probe costs about a third of a search's
// time without it). A hint only: no effect on any result.
static inline void tt_prefetch(const TT *tt, Key key)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(tt_bucket(tt, key));
#else
    (void)tt;
    (void)key;
#endif
}

// Writes at a slot tt_probe gave. score must already be tt_score_to()'d.
void tt_store(TT *tt, TTSlot slot, Key key, Score score, Score eval, int bound, int depth, Move move);

// Permille of the first 1000 buckets' entries written in the current search.
int tt_hashfull(const TT *tt);

static inline int tt_bound(const TTEntry *e) { return e->genbound & 3; }
static inline int tt_depth(const TTEntry *e) { return e->depth - TT_DEPTH_OFFSET; }

// Mate scores are stored as distance from this node, not from the root.
static inline Score tt_score_to(Score s, int ply)
{
    return s >= SCORE_TB_WIN_IN_MAX ? s + ply : s <= -SCORE_TB_WIN_IN_MAX ? s - ply : s;
}
static inline Score tt_score_from(Score s, int ply)
{
    return s >= SCORE_TB_WIN_IN_MAX ? s - ply : s <= -SCORE_TB_WIN_IN_MAX ? s + ply : s;
}

#endif
