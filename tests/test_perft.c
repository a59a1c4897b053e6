// SPDX-License-Identifier: MIT
// Perft over every position of the three suites. `make test` checks each depth whose
// count is at most PERFT_QUICK_LIMIT nodes; `make test-long` checks every listed depth.
#include "test_util.h"

#include <inttypes.h>

#include "move.h"
#include "movegen.h"
#include "perft.h"
#include "position.h"

enum { PERFT_QUICK_LIMIT = 2000000 };

static Position pos;

// Checks every line of an EPD perft file. OUTPOST_SHARD=i/n checks only lines i, i+n,
// ... (counting from 0), so a long run can be split over processes.
static void check_suite(const char *name, bool chess960)
{
    FILE *f = open_data(name);
    char line[512];
    int lineno = 0, checked = 0, skipped = 0, shard = 0, shards = 1;
    const char *env = getenv("OUTPOST_SHARD");
    if (env && (sscanf(env, "%d/%d", &shard, &shards) != 2 || shards < 1 || shard < 0 || shard >= shards))
        fail_msg("OUTPOST_SHARD must look like 0/2");
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if ((lineno - 1) % shards != shard)
            continue;
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = '\0';
        char err[128];
        if (!pos_set_fen(&pos, line, chess960, err, sizeof err))
            fail_msg("%s:%d: FEN rejected: %s", name, lineno, err);
        char *field = semi + 1;
        for (char *tok = strtok(field, ";"); tok; tok = strtok(NULL, ";")) {
            int depth;
            uint64_t expected;
            if (sscanf(tok, " D%d %" SCNu64, &depth, &expected) != 2)
                continue;
            if (expected > PERFT_QUICK_LIMIT && !long_tests()) {
                skipped++;
                continue;
            }
            uint64_t got = perft(&pos, depth);
            if (got != expected)
                fail_msg("%s:%d depth %d: expected %" PRIu64 ", got %" PRIu64, name, lineno, depth,
                         expected, got);
            checked++;
        }
    }
    fclose(f);
    assert_true(lineno > 0 && checked > 0);
    print_message("%s: %d positions (shard %d/%d), %d depth checks exact, %d deeper ones left to test-long\n",
                  name, lineno, shard, shards, checked, skipped);
}

// gen_is_pseudo_legal && gen_is_legal must hold for exactly the moves gen_moves makes:
// checked for every 16-bit move value in pos.
static void check_move_tests(const Position *p, const char *where)
{
    MoveList list;
    gen_moves(p, &list, GEN_ALL);
    static bool in_list[65536];
    memset(in_list, 0, sizeof in_list);
    for (int i = 0; i < list.count; i++)
        in_list[list.moves[i]] = true;
    for (int v = 0; v < 65536; v++) {
        Move m = (Move)v;
        bool ok = gen_is_pseudo_legal(p, m) && gen_is_legal(p, m);
        if (ok != in_list[v]) {
            char fen[FEN_MAX], mv[MOVE_STR_MAX];
            pos_to_fen(p, fen);
            move_to_uci(m, p->chess960, mv);
            fail_msg("%s: %s flag %d: generated %d, accepted %d (%s)", where, mv, move_flag(m), in_list[v], ok, fen);
        }
    }
}

// Every position of the perft suites, and the children of the standard and tricky ones.
static void test_pseudo_legal(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        bool chess960, children;
    } SUITES[] = {{"perft.epd", false, true}, {"perft_tricky.epd", false, true}, {"perft960.epd", true, false}};
    int checked = 0;
    for (int s = 0; s < 3; s++) {
        FILE *f = open_data(SUITES[s].name);
        char line[512], err[128];
        while (fgets(line, sizeof line, f)) {
            char *semi = strchr(line, ';');
            if (!semi)
                continue;
            *semi = '\0';
            if (!pos_set_fen(&pos, line, SUITES[s].chess960, err, sizeof err))
                fail_msg("%s: FEN rejected: %s", SUITES[s].name, err);
            check_move_tests(&pos, SUITES[s].name);
            checked++;
            if (!SUITES[s].children)
                continue;
            MoveList list;
            gen_moves(&pos, &list, GEN_ALL);
            for (int i = 0; i < list.count; i++) {
                pos_make_move(&pos, list.moves[i]);
                check_move_tests(&pos, SUITES[s].name);
                pos_unmake_move(&pos, list.moves[i]);
                checked++;
            }
        }
        fclose(f);
    }
    print_message("every move value checked in %d positions\n", checked);
}

static void test_perft_standard(void **state)
{
    (void)state;
    check_suite("perft.epd", false);
}

static void test_perft_tricky(void **state)
{
    (void)state;
    check_suite("perft_tricky.epd", false);
}

static void test_perft_960(void **state)
{
    (void)state;
    check_suite("perft960.epd", true);
}

// The same Chess960 positions must also parse and count right with UCI_Chess960 off:
// Shredder-FEN letters alone switch the position to Chess960 castling.
static void test_perft_960_detected_from_fen(void **state)
{
    (void)state;
    char err[128];
    assert_true(pos_set_fen(&pos, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", false,
                            err, sizeof err));
    assert_true(pos.chess960);
    assert_int_equal(perft(&pos, 3), 12189);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pseudo_legal),
        cmocka_unit_test(test_perft_standard),
        cmocka_unit_test(test_perft_tricky),
        cmocka_unit_test(test_perft_960),
        cmocka_unit_test(test_perft_960_detected_from_fen),
    };
    return cmocka_run_group_tests_name("perft", tests, NULL, NULL);
}
