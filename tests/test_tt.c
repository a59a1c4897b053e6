// SPDX-License-Identifier: MIT
// The transposition table: store and probe, replacement, and hashfull.
#include "test_util.h"

#include "platform.h"
#include "tt.h"

static void test_tt(void **state)
{
    (void)state;
    TT tt = {0};
    assert_true(tt_resize(&tt, 1));
    assert_int_equal(tt.count * sizeof(TTBucket), 1024 * 1024);
    tt_new_search(&tt);
    TTEntry e;
    TTSlot slot;
    Key key = 0x123456789ABCDEF0ULL;
    assert_false(tt_probe(&tt, key, &e, &slot));
    Score mate = mate_in(7); // mate found 7 plies from the root, stored at ply 3
    tt_store(&tt, slot, key, tt_score_to(mate, 3), 42, BOUND_EXACT, 9, make_move(12, 28, FLAG_DOUBLE_PUSH));
    assert_true(tt_probe(&tt, key, &e, &slot));
    assert_int_equal(tt_depth(&e), 9);
    assert_int_equal(tt_bound(&e), BOUND_EXACT);
    assert_int_equal(e.eval, 42);
    assert_int_equal(e.move, make_move(12, 28, FLAG_DOUBLE_PUSH));
    // Seen from ply 5 the same mate is two plies further away.
    assert_int_equal(tt_score_from(e.score, 5), mate_in(9));
    // A half-written entry (data of one write, check of another) does not match.
    assert_true(tt_probe(&tt, key, &e, &slot));
    atomic_store(&slot.bucket->data[slot.index], atomic_load(&slot.bucket->data[slot.index]) ^ 0x10000);
    assert_false(tt_probe(&tt, key, &e, &slot));
    tt_clear(&tt);
    assert_false(tt_probe(&tt, key, &e, &slot));
    assert_true(tt_resize(&tt, 2));
    assert_int_equal(tt.count * sizeof(TTBucket), 2 * 1024 * 1024);
    tt_free(&tt);
}

// The key of entry j of bucket i: the bucket comes from the high 32 bits.
static Key key_in_bucket(const TT *tt, uint64_t i, int j)
{
    uint64_t hi = ((i << 32) + tt->count - 1) / tt->count; // the smallest hi in bucket i
    return hi << 32 | (uint64_t)(0x1000 + j);
}

// hashfull: the permille of the first 1,000 buckets' entries written by this search, of
// every bound; after a new search they no longer count.
static void test_tt_hashfull(void **state)
{
    (void)state;
    TT tt = {0};
    assert_true(tt_resize(&tt, 1));
    tt_new_search(&tt);
    assert_int_equal(tt_hashfull(&tt), 0);
    TTEntry e;
    TTSlot slot;
    for (uint64_t i = 0; i < 600; i++) {
        Key key = key_in_bucket(&tt, i, 0);
        assert_false(tt_probe(&tt, key, &e, &slot));
        assert_ptr_equal(slot.bucket, &tt.buckets[i]);
        tt_store(&tt, slot, key, 0, 0, 1 + (int)(i % 3), 4, MOVE_NONE); // upper, lower, exact
    }
    assert_int_equal(tt_hashfull(&tt), 200); // 600 of the first 3,000 entries
    tt_new_search(&tt);
    assert_int_equal(tt_hashfull(&tt), 0);
    tt_free(&tt);
}

// The table's memory: zeroed, aligned for the buckets (to 2 MiB where Linux maps it), all
// of it writable, returned for reuse; nothing for a size of 0 or one no mapping can hold.
static void test_alloc_large(void **state)
{
    (void)state;
    assert_null(platform_alloc_large(0));
    assert_null(platform_alloc_large(SIZE_MAX - 1));
    const size_t sizes[] = {1, 4096, 3 * 1024 * 1024 + 5, 16 * 1024 * 1024};
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            unsigned char *p = platform_alloc_large(sizes[i]);
            assert_non_null(p);
            assert_int_equal((uintptr_t)p % 64, 0);
#if defined(__linux__)
            assert_int_equal((uintptr_t)p % (2 * 1024 * 1024), 0);
#endif
            size_t nonzero = 0;
            for (size_t j = 0; j < sizes[i]; j += 4093)
                nonzero += p[j] != 0;
            nonzero += p[sizes[i] - 1] != 0;
            assert_int_equal(nonzero, 0);
            memset(p, 0xA5, sizes[i]);
            assert_int_equal(p[sizes[i] - 1], 0xA5);
            platform_free_large(p, sizes[i]);
        }
    }
    platform_free_large(NULL, 4096); // as free(NULL): nothing
}

// Replacement by depth and age: a new key takes the slot of the entry worth least, the
// shallow and old one, not one of this search's deeper entries; and a shallower result of
// this search for a key does not overwrite the deeper one it has (an exact one does).
static void test_tt_replacement(void **state)
{
    (void)state;
    TT tt = {0};
    assert_true(tt_resize(&tt, 1));
    TTEntry e;
    TTSlot slot;
    Key old = key_in_bucket(&tt, 7, 0), b = key_in_bucket(&tt, 7, 1), c = key_in_bucket(&tt, 7, 2);
    Key d = key_in_bucket(&tt, 7, 3);
    tt_new_search(&tt);
    assert_false(tt_probe(&tt, old, &e, &slot));
    tt_store(&tt, slot, old, 0, 0, BOUND_LOWER, 10, MOVE_NONE);
    tt_new_search(&tt); // `old` is one search old now
    for (int k = 0; k < 2; k++) {
        Key key = k ? c : b;
        assert_false(tt_probe(&tt, key, &e, &slot));
        tt_store(&tt, slot, key, 0, 0, BOUND_LOWER, 12, MOVE_NONE);
    }
    assert_true(tt_probe(&tt, old, &e, &slot) && tt_probe(&tt, b, &e, &slot) && tt_probe(&tt, c, &e, &slot));
    TTSlot old_slot;
    assert_true(tt_probe(&tt, old, &e, &old_slot));
    assert_false(tt_probe(&tt, d, &e, &slot));
    assert_int_equal(slot.index, old_slot.index); // the old entry goes, not this search's

    assert_true(tt_probe(&tt, b, &e, &slot));
    tt_store(&tt, slot, b, 5, 0, BOUND_UPPER, 2, MOVE_NONE); // shallower: kept out
    assert_true(tt_probe(&tt, b, &e, &slot));
    assert_int_equal(tt_depth(&e), 12);
    assert_int_equal(tt_bound(&e), BOUND_LOWER);
    tt_store(&tt, slot, b, 5, 0, BOUND_EXACT, 2, MOVE_NONE); // exact: replaces
    assert_true(tt_probe(&tt, b, &e, &slot));
    assert_int_equal(tt_depth(&e), 2);
    assert_int_equal(tt_bound(&e), BOUND_EXACT);
    tt_free(&tt);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tt),
        cmocka_unit_test(test_tt_hashfull),
        cmocka_unit_test(test_alloc_large),
        cmocka_unit_test(test_tt_replacement),
    };
    return cmocka_run_group_tests_name("tt", tests, NULL, NULL);
}
