// SPDX-License-Identifier: MIT
// The transposition table: store and probe, replacement, and hashfull.
#include "test_util.h"

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

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tt),
        cmocka_unit_test(test_tt_hashfull),
    };
    return cmocka_run_group_tests_name("tt", tests, NULL, NULL);
}
