// SPDX-License-Identifier: MIT
// OpenBench's genfens: exactly N legal openings, the same for the same seed, from the
// book when one is given, and one clear line with a non-zero status for bad input.
#include "test_util.h"

#include "genfens.h"
#include "movegen.h"
#include "position.h"

typedef struct {
    int n;
    char lines[64][160];
} Lines;

static void keep(void *ctx, const char *line)
{
    Lines *l = ctx;
    if (l->n < 64)
        snprintf(l->lines[l->n], sizeof l->lines[0], "%s", line);
    l->n++;
}

static int run(const char *command, Lines *out)
{
    memset(out, 0, sizeof *out);
    return genfens_run(command, NULL, keep, out);
}

static const char *fen_of(const char *line)
{
    static const char prefix[] = "info string genfens ";
    assert_memory_equal(line, prefix, sizeof prefix - 1);
    return line + sizeof prefix - 1;
}

// Every line a playable position: legal, a legal move, not drawn by material.
static void check_fens(const Lines *l, int n)
{
    static Position pos;
    assert_int_equal(l->n, n);
    for (int i = 0; i < n; i++) {
        char err[128];
        if (!pos_set_fen(&pos, fen_of(l->lines[i]), false, err, sizeof err))
            fail_msg("line %d: %s (%s)", i, l->lines[i], err);
        assert_true(gen_count_legal(&pos) > 0);
        assert_false(pos_is_insufficient_material(&pos));
    }
}

static void test_genfens_count_and_seed(void **state)
{
    (void)state;
    static Lines a, b, c, d;
    assert_int_equal(run("genfens 8 seed 7 book None", &a), 0);
    check_fens(&a, 8);
    assert_int_equal(run("genfens 8 seed 7 book None some extra words", &b), 0);
    assert_memory_equal(&a, &b, sizeof a); // same seed, same FENs (extra is ignored)
    assert_int_equal(run("genfens 3 seed 7 book None", &c), 0);
    for (int i = 0; i < 3; i++) // the i-th FEN does not depend on N
        assert_string_equal(a.lines[i], c.lines[i]);
    assert_int_equal(run("genfens 8 seed 8 book None", &d), 0);
    check_fens(&d, 8);
    int same = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            same += !strcmp(a.lines[i], d.lines[j]);
    assert_true(same <= 1); // another seed, other openings
    int distinct = 0;
    for (int i = 0; i < 8; i++) {
        bool seen = false;
        for (int j = 0; j < i; j++)
            seen |= !strcmp(a.lines[i], a.lines[j]);
        distinct += !seen;
    }
    assert_true(distinct >= 7);
}

// A book of one queenless position (unreachable in a few plies from the start): every
// opening comes from it, two or three random plies on.
static void test_genfens_book(void **state)
{
    (void)state;
    const char *path = "build/tests/genfens_book.epd";
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("\n  \nrnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - c0 \"no queens\";\n", f);
    fclose(f);
    static Lines l, again;
    char command[128];
    snprintf(command, sizeof command, "genfens 6 seed 3 book %s", path);
    assert_int_equal(run(command, &l), 0);
    check_fens(&l, 6);
    for (int i = 0; i < 6; i++) {
        const char *fen = fen_of(l.lines[i]);
        size_t board = strcspn(fen, " ");
        assert_true(strcspn(fen, "Qq") >= board); // no queen on the board
        int fullmove = atoi(strrchr(fen, ' ') + 1);
        assert_true(fullmove == 2 || fullmove == 3);
    }
    assert_int_equal(run(command, &again), 0);
    assert_memory_equal(&l, &again, sizeof l);
    // A book without a usable position is refused, not looped on.
    f = fopen(path, "w");
    fputs("not a position\n8/8/8/8/8/8/8/8 w - -\n", f);
    fclose(f);
    assert_int_equal(run(command, &l), 1);
    assert_int_equal(l.n, 1);
    assert_non_null(strstr(l.lines[0], "info string genfens: no playable position"));
    remove(path);
}

static void test_genfens_bad_input(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "genfens", "genfens 5", "genfens 5 seed", "genfens 5 seed 1", "genfens 5 seed 1 book",
        "genfens 0 seed 1 book None", "genfens -3 seed 1 book None", "genfens 1000001 seed 1 book None",
        "genfens x seed 1 book None", "genfens 5 seed -1 book None", "genfens 5 sead 1 book None",
        "genfens 5 seed 1 bok None", "genfens 5 seed 1 book /no/such/file.epd", "genfens 5 seed 1 book /dev/null",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        static Lines l;
        if (run(bad[i], &l) != 1 || l.n != 1 || strncmp(l.lines[0], "info string genfens: ", 21))
            fail_msg("'%s': %d lines, first '%s'", bad[i], l.n, l.n ? l.lines[0] : "");
    }
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_genfens_count_and_seed),
        cmocka_unit_test(test_genfens_book),
        cmocka_unit_test(test_genfens_bad_input),
    };
    return cmocka_run_group_tests_name("genfens", tests, NULL, NULL);
}
