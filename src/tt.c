// SPDX-License-Identifier: MIT
// Transposition table storage and replacement.
#include "tt.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

bool tt_resize(TT *tt, size_t mb)
{
    size_t count = mb * 1024 * 1024 / sizeof(TTBucket);
    if (count == 0)
        return false;
    // Fresh pages come zeroed from the system and are touched only when the search writes
    // them, which keeps start-up fast; huge pages where the system grants them.
    if (count > SIZE_MAX / sizeof(TTBucket))
        return false;
    TTBucket *buckets = platform_alloc_large(count * sizeof(TTBucket));
    if (!buckets)
        return false;
    platform_free_large(tt->buckets, tt->count * sizeof(TTBucket));
    tt->buckets = buckets;
    tt->count = count;
    tt->generation = 0;
    return true;
}

void tt_free(TT *tt)
{
    platform_free_large(tt->buckets, tt->count * sizeof(TTBucket));
    tt->buckets = NULL;
    tt->count = 0;
}

void tt_clear(TT *tt)
{
    // A plain memset of the atomic words: clearing happens only while no search runs.
    memset(tt->buckets, 0, tt->count * sizeof(TTBucket));
    tt->generation = 0;
}

void tt_new_search(TT *tt) { tt->generation = (uint8_t)(tt->generation + 4); }

// How many searches ago an entry was written (0..63): the bound bits are masked off first.
static inline int age_of(const TT *tt, const TTEntry *e)
{
    return ((tt->generation - (e->genbound & 0xFC)) & 0xFC) >> 2;
}

static inline uint16_t fold16(uint64_t d) { return (uint16_t)(d ^ d >> 16 ^ d >> 32 ^ d >> 48); }

// The entry at a slot, unpacked (relaxed loads: other threads may write it meanwhile).
static TTEntry read_slot(TTSlot s)
{
    uint64_t d = atomic_load_explicit(&s.bucket->data[s.index], memory_order_relaxed);
    uint16_t check = atomic_load_explicit(&s.bucket->check[s.index], memory_order_relaxed);
    return (TTEntry){.key16 = (uint16_t)(check ^ fold16(d)),
                     .move = (Move)d,
                     .score = (int16_t)(d >> 16),
                     .eval = (int16_t)(d >> 32),
                     .depth = (uint8_t)(d >> 48),
                     .genbound = (uint8_t)(d >> 56)};
}

static void write_slot(TTSlot s, const TTEntry *e)
{
    uint64_t d = (uint64_t)e->move | (uint64_t)(uint16_t)e->score << 16 | (uint64_t)(uint16_t)e->eval << 32
               | (uint64_t)e->depth << 48 | (uint64_t)e->genbound << 56;
    atomic_store_explicit(&s.bucket->data[s.index], d, memory_order_relaxed);
    atomic_store_explicit(&s.bucket->check[s.index], (uint16_t)(e->key16 ^ fold16(d)), memory_order_relaxed);
}

bool tt_probe(TT *tt, Key key, TTEntry *entry, TTSlot *slot)
{
    TTBucket *b = tt_bucket(tt, key);
    uint16_t key16 = (uint16_t)key;
    TTEntry e[TT_BUCKET_SIZE];
    for (int i = 0; i < TT_BUCKET_SIZE; i++) {
        e[i] = read_slot((TTSlot){b, i});
        if (e[i].key16 == key16 && e[i].genbound) {
            *entry = e[i];
            *slot = (TTSlot){b, i};
            return true;
        }
    }
    // Replace the entry worth least: shallow and old.
    int worst = 0;
    for (int i = 1; i < TT_BUCKET_SIZE; i++)
        if (e[i].depth - 8 * age_of(tt, &e[i]) < e[worst].depth - 8 * age_of(tt, &e[worst]))
            worst = i;
    *slot = (TTSlot){b, worst};
    return false;
}

void tt_store(TT *tt, TTSlot slot, Key key, Score score, Score eval, int bound, int depth, Move move)
{
    TTEntry e = read_slot(slot);
    uint16_t key16 = (uint16_t)key;
    // Keep an older move for the same position when this search found none.
    if (move != MOVE_NONE || e.key16 != key16)
        e.move = move;
    // An exact result, a different position, or a deeper or equal draft replaces.
    if (bound == BOUND_EXACT || e.key16 != key16 || depth + TT_DEPTH_OFFSET + 3 > e.depth || age_of(tt, &e) != 0) {
        e.key16 = key16;
        e.score = (int16_t)score;
        e.eval = (int16_t)eval;
        e.depth = (uint8_t)(depth + TT_DEPTH_OFFSET);
        e.genbound = (uint8_t)(tt->generation | bound);
    }
    write_slot(slot, &e);
}

int tt_hashfull(const TT *tt)
{
    int used = 0;
    size_t n = tt->count < 1000 ? tt->count : 1000;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < TT_BUCKET_SIZE; j++)
        {
            TTEntry e = read_slot((TTSlot){&tt->buckets[i], j});
            used += e.genbound && age_of(tt, &e) == 0;
        }
    return (int)(used * 1000 / (n * TT_BUCKET_SIZE));
}
