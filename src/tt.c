// SPDX-License-Identifier: MIT
// Transposition table storage and replacement.
#include "tt.h"

#include <stdlib.h>
#include <string.h>

bool tt_resize(TT *tt, size_t mb)
{
    size_t count = mb * 1024 * 1024 / sizeof(TTBucket);
    if (count == 0)
        return false;
    // calloc rather than malloc + clear: fresh pages come zeroed from the system and are
    // touched only when the search writes them, which keeps start-up fast.
    TTBucket *buckets = calloc(count, sizeof(TTBucket));
    if (!buckets)
        return false;
    free(tt->buckets);
    tt->buckets = buckets;
    tt->count = count;
    tt->generation = 0;
    return true;
}

void tt_free(TT *tt)
{
    free(tt->buckets);
    tt->buckets = NULL;
    tt->count = 0;
}

void tt_clear(TT *tt)
{
    memset(tt->buckets, 0, tt->count * sizeof(TTBucket));
    tt->generation = 0;
}

void tt_new_search(TT *tt) { tt->generation = (uint8_t)(tt->generation + 4); }

static inline TTBucket *bucket_of(const TT *tt, Key key)
{
    // Multiply-shift maps the high 32 bits onto [0, count) without a division.
    return &tt->buckets[((key >> 32) * (uint64_t)tt->count) >> 32];
}

// How many searches ago an entry was written (0..63).
static inline int age_of(const TT *tt, const TTEntry *e) { return ((tt->generation - e->genbound) & 0xFC) >> 2; }

TTEntry *tt_probe(TT *tt, Key key, bool *found)
{
    TTBucket *b = bucket_of(tt, key);
    uint16_t key16 = (uint16_t)key;
    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        TTEntry *e = &b->entries[i];
        if (e->key16 == key16 && e->genbound) {
            *found = true;
            return e;
        }
    }
    *found = false;
    // Replace the entry worth least: shallow and old.
    TTEntry *worst = &b->entries[0];
    for (int i = 1; i < TT_BUCKET_SIZE; i++) {
        TTEntry *e = &b->entries[i];
        if (e->depth - 8 * age_of(tt, e) < worst->depth - 8 * age_of(tt, worst))
            worst = e;
    }
    return worst;
}

void tt_store(TT *tt, TTEntry *e, Key key, Score score, Score eval, int bound, int depth, Move move)
{
    uint16_t key16 = (uint16_t)key;
    // Keep an older move for the same position when this search found none.
    if (move != MOVE_NONE || e->key16 != key16)
        e->move = move;
    // An exact result, a different position, or a deeper or equal draft replaces.
    if (bound == BOUND_EXACT || e->key16 != key16 || depth + TT_DEPTH_OFFSET + 3 > e->depth
        || age_of(tt, e) != 0) {
        e->key16 = key16;
        e->score = (int16_t)score;
        e->eval = (int16_t)eval;
        e->depth = (uint8_t)(depth + TT_DEPTH_OFFSET);
        e->genbound = (uint8_t)(tt->generation | bound);
    }
}

int tt_hashfull(const TT *tt)
{
    int used = 0;
    size_t n = tt->count < 1000 ? tt->count : 1000;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < TT_BUCKET_SIZE; j++)
            used += tt->buckets[i].entries[j].genbound && age_of(tt, &tt->buckets[i].entries[j]) == 0;
    return (int)(used * 1000 / (n * TT_BUCKET_SIZE));
}
