// SPDX-License-Identifier: MIT
// The hand-written evaluation: colour symmetry over the suites, the weights its trace
// reaches, and that it prefers what chess players would.
#include "test_util.h"

#include <ctype.h>
#include <math.h>
#include "eval.h"
#include "position.h"

static Position pos;

// The same position with colours swapped and the board flipped top to bottom.
static void mirror_fen(const char *fen, char *out)
{
    char board[128], side[4], castling[16], ep[4];
    int rule50 = 0, move = 1;
    assert_true(sscanf(fen, "%127s %3s %15s %3s %d %d", board, side, castling, ep, &rule50, &move) >= 4);
    char *ranks[8];
    int n = 0;
    for (char *r = strtok(board, "/"); r && n < 8; r = strtok(NULL, "/"))
        ranks[n++] = r;
    out[0] = '\0';
    for (int i = 7; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            *c = (char)(isupper((unsigned char)*c) ? tolower((unsigned char)*c) : toupper((unsigned char)*c));
        strcat(out, ranks[i]);
        strcat(out, i ? "/" : " ");
    }
    strcat(out, side[0] == 'w' ? "b " : "w ");
    char c2[16] = "";
    for (char *c = castling; *c; c++) // keep KQkq order: white's rights first
        if (islower((unsigned char)*c))
            c2[strlen(c2)] = (char)toupper((unsigned char)*c);
    for (char *c = castling; *c; c++)
        if (isupper((unsigned char)*c))
            c2[strlen(c2)] = (char)tolower((unsigned char)*c);
    strcat(out, castling[0] == '-' ? "-" : c2);
    if (ep[0] == '-')
        strcat(out, " -");
    else
        sprintf(out + strlen(out), " %c%c", ep[0], ep[1] == '3' ? '6' : '3');
    sprintf(out + strlen(out), " %d %d", rule50, move);
}

// Calls check(fen) for the first four FEN fields of every line of the suites.
static int for_each_suite_fen(void (*check)(const char *fen))
{
    static const char *files[] = {"perft.epd", "bk.epd", "ecmgcp.epd"};
    int checked = 0;
    for (size_t f = 0; f < 3; f++) {
        FILE *in = open_data(files[f]);
        char line[512];
        while (fgets(line, sizeof line, in)) {
            char fen[256] = "", *p = line;
            for (int field = 0; field < 4; field++) {
                size_t len = strcspn(p, " ;");
                strncat(fen, p, len);
                strcat(fen, field < 3 ? " " : "");
                p += len + 1;
            }
            char err[128];
            if (!pos_set_fen(&pos, fen, false, err, sizeof err))
                continue;
            check(fen);
            checked++;
        }
        fclose(in);
    }
    return checked;
}

static void check_mirror(const char *fen)
{
    char err[128], mirrored[256];
    Score a = eval_evaluate(&pos);
    mirror_fen(fen, mirrored);
    if (!pos_set_fen(&pos, mirrored, false, err, sizeof err))
        fail_msg("mirror of %s rejected: %s (%s)", fen, mirrored, err);
    Score b = eval_evaluate(&pos);
    if (a != b)
        fail_msg("eval %d of %s but %d of its mirror %s", a, fen, b, mirrored);
    assert_true(a > -SCORE_MATE_IN_MAX && a < SCORE_MATE_IN_MAX);
}

static void test_eval_symmetry(void **state)
{
    (void)state;
    assert_true(for_each_suite_fen(check_mirror) > 300);
}

static double trace_weights[WT_NB][2];
static int traced_nonzero;

// The tuner's linear model must reproduce the evaluation up to its integer rounding
// (two truncating divisions, each losing less than 1 cp), or the tuner would fit
// something the engine does not compute.
static void check_trace(const char *fen)
{
    EvalTrace trace;
    Score traced = eval_trace(&pos, &trace);
    Score plain = eval_evaluate(&pos);
    if (traced != plain)
        fail_msg("eval_trace %d but eval_evaluate %d for %s", traced, plain, fen);
    double linear = eval_from_trace(&trace, (const double(*)[2])trace_weights, pos.side);
    double white_view = pos.side == WHITE ? plain : -plain;
    if (fabs(linear - white_view) >= 2.0)
        fail_msg("linear model %.2f but eval %.0f (white's view) for %s", linear, white_view, fen);
    for (int i = 0; i < WT_NB; i++)
        traced_nonzero += trace.coef[i] != 0;
}

static void test_eval_trace(void **state)
{
    (void)state;
    for (int i = 0; i < WT_NB; i++) {
        trace_weights[i][0] = eval_weights[i].mg;
        trace_weights[i][1] = eval_weights[i].eg;
    }
    traced_nonzero = 0;
    assert_true(for_each_suite_fen(check_trace) > 300);
    assert_true(traced_nonzero > 300 * 20); // dozens of weights per position
}

static void test_eval_sense(void **state)
{
    (void)state;
    char err[128];
    // A queen up is winning; the start position is about level.
    assert_true(pos_set_fen(&pos, "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, err, sizeof err));
    assert_true(eval_evaluate(&pos) > 700);
    assert_true(pos_set_fen(&pos, START_FEN, false, err, sizeof err));
    assert_true(abs(eval_evaluate(&pos)) < 50);
    // A knight in the centre beats one in the corner.
    assert_true(pos_set_fen(&pos, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", false, err, sizeof err));
    Score centre = eval_evaluate(&pos);
    assert_true(pos_set_fen(&pos, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1", false, err, sizeof err));
    assert_true(centre > eval_evaluate(&pos));
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval_symmetry),
        cmocka_unit_test(test_eval_trace),
        cmocka_unit_test(test_eval_sense),
    };
    return cmocka_run_group_tests_name("eval", tests, NULL, NULL);
}
