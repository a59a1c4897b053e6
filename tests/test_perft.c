// SPDX-License-Identifier: MIT
// Perft over every position of the three suites. `make test` checks each depth whose
// count is at most PERFT_QUICK_LIMIT nodes; `make test-long` checks every listed depth.
#include "test_util.h"

#include <inttypes.h>

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
        cmocka_unit_test(test_perft_standard),
        cmocka_unit_test(test_perft_tricky),
        cmocka_unit_test(test_perft_960),
        cmocka_unit_test(test_perft_960_detected_from_fen),
    };
    return cmocka_run_group_tests_name("perft", tests, NULL, NULL);
}
