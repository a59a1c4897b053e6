// SPDX-License-Identifier: MIT
// The PGN reader: match runners' comments, the movetext's other parts, malformed games
// named and skipped, and a PGN fastchess played here (tests/data/fastchess_nodes5000.pgn:
// 4 games at 5,000 nodes a move, -pgnout nodes=true seldepth=true).
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include "move.h"
#include "pgn.h"

static void test_comment_scores(void **state)
{
    (void)state;
    static const struct { const char *text; bool ok; Score score; int depth; } cases[] = {
        {"+0.35/12 0.123s, n=5000, sd=15", true, 35, 12}, // fastchess
        {"-1.07/9 0.250s", true, -107, 9},                 // cutechess-cli
        {"0.00/8 0.005s", true, 0, 8},
        {"+M5/20 0.010s", true, SCORE_MATE - 5, 20},
        {"-M4/18", true, -SCORE_MATE + 4, 18},
        {"+400.00/30", true, SCORE_TB_WIN_IN_MAX - 1, 30}, // kept below the mate range
        {"book", false, 0, 0},
        {"", false, 0, 0},
        {"White resigns", false, 0, 0},
        {"+0.35 0.1s", false, 0, 0},
        {"+/12", false, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Score s = 0;
        int d = 0;
        bool ok = pgn_comment_score(cases[i].text, &s, &d);
        if (ok != cases[i].ok || (ok && (s != cases[i].score || d != cases[i].depth)))
            fail_msg("'%s': %d %d %d", cases[i].text, ok, s, d);
    }
}

static const char GAMES[] =
    "[Event \"a\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n"
    "[FEN \"4k3/8/8/8/8/8/4P3/4K2R w K - 0 1\"]\n\n"
    "1. O-O {book} Kd7 {-2.50/10 0.1s} 2. e4! {+2.61/11 0.1s} $1 (2. Rd1+ Ke6 {a side line (with parens)}) "
    "Ke6 {-M7/12} ; a comment to the line's end\n"
    "3. Kg2 {+M6/13 0.1s} 1-0\n\n"
    "[Event \"b\"]\n[Result \"0-1\"]\n\n1. e4 {+0.30/5} e5 {-0.20/5} 2. Ke3 {+0.10/4} 0-1\n\n"
    "[Event \"c\"]\n[Result \"*\"]\n\n1. d4 {+0.10/3} 3...Nf6 {-0.1/3} *\n\n"
    "[Event \"d\"]\n[Variant \"chess960\"]\n[Result \"1/2-1/2\"]\n"
    "[FEN \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\"]\n\n"
    "9. g3 {+0.2/3} 1/2-1/2\n";

static void test_games(void **state)
{
    (void)state;
    FILE *f = fmemopen((void *)GAMES, sizeof GAMES - 1, "r");
    assert_non_null(f);
    PgnReader r;
    pgn_open(&r, f);
    static PgnGame g;
    char err[256];
    // Game 1: a start position, a book move, a variation, a NAG, a ; comment, mates.
    assert_int_equal(pgn_next_game(&r, &g, err, sizeof err), 1);
    assert_int_equal(g.result, 2);
    assert_false(g.chess960);
    assert_string_equal(g.fen, "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1");
    assert_int_equal(g.n, 5);
    assert_false(g.moves[0].scored);
    assert_true(g.moves[1].scored && g.moves[1].score == -250 && g.moves[1].depth == 10);
    assert_true(g.moves[2].scored && g.moves[2].score == 261);
    assert_true(g.moves[3].scored && g.moves[3].score == -SCORE_MATE + 7);
    assert_true(g.moves[4].scored && g.moves[4].score == SCORE_MATE - 6);
    char uci[MOVE_STR_MAX];
    move_to_uci(g.moves[0].move, false, uci);
    assert_string_equal(uci, "e1g1");
    // Game 2: an illegal move (the king walks into the pawn's attack): named, skipped.
    assert_int_equal(pgn_next_game(&r, &g, err, sizeof err), -1);
    assert_non_null(strstr(err, "'Ke3' at ply 3"));
    // Game 3 is read after it: unfinished, and "3...Nf6" read as a move after its number.
    assert_int_equal(pgn_next_game(&r, &g, err, sizeof err), 1);
    assert_int_equal(g.result, -1);
    assert_int_equal(g.n, 2);
    // Game 4: Chess960, flagged.
    assert_int_equal(pgn_next_game(&r, &g, err, sizeof err), 1);
    assert_true(g.chess960);
    assert_int_equal(g.result, 1);
    assert_int_equal(pgn_next_game(&r, &g, err, sizeof err), 0);
    pgn_close(&r);
    fclose(f);
}

// fastchess's own output: every move scored, scores alternate in sign as the engines
// agree, and the plies match each game's PlyCount header.
static void test_fastchess_pgn(void **state)
{
    (void)state;
    FILE *f = open_data("fastchess_nodes5000.pgn");
    PgnReader r;
    pgn_open(&r, f);
    static PgnGame g;
    char err[256];
    static const int plies[] = {98, 98, 184, 184};
    int games = 0, got;
    while ((got = pgn_next_game(&r, &g, err, sizeof err)) != 0) {
        if (got < 0)
            fail_msg("game %d: %s", games + 1, err);
        assert_true(games < 4);
        assert_int_equal(g.n, plies[games]);
        assert_true(g.result >= 0 && g.fen[0]);
        for (int i = 0; i < g.n; i++)
            assert_true(g.moves[i].scored && g.moves[i].depth > 0);
        games++;
    }
    assert_int_equal(games, 4);
    pgn_close(&r);
    fclose(f);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_comment_scores),
        cmocka_unit_test(test_games),
        cmocka_unit_test(test_fastchess_pgn),
    };
    return cmocka_run_group_tests_name("pgn", tests, NULL, NULL);
}
