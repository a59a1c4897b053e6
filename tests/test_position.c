// SPDX-License-Identifier: MIT
// Position tests: FEN round trips, every kind of bad FEN rejected without side effects,
// make/unmake restoring the position exactly, incremental keys, and the rule queries.
#include "test_util.h"

#include "bitboard.h"
#include "magic.h"

#include "move.h"
#include "movegen.h"
#include "position.h"

static Position pos, copy;

static void set(Position *p, const char *fen)
{
    char err[128];
    if (!pos_set_fen(p, fen, false, err, sizeof err))
        fail_msg("rejected %s: %s", fen, err);
}

// The magic tables (magics from the build-time generator) must agree with the slow ray
// walk for every square, on random occupancies and on every subset of a few masks.
static void test_slider_tables(void **state)
{
    (void)state;
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    for (Square sq = 0; sq < 64; sq++) {
        for (int i = 0; i < 2000; i++) {
            rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
            Bitboard occ = rng & (rng >> 9); // about a quarter of the squares
            assert_true(bishop_attacks(sq, occ) == slider_attacks_slow(BISHOP, sq, occ));
            assert_true(rook_attacks(sq, occ) == slider_attacks_slow(ROOK, sq, occ));
        }
    }
    static const Square CORNERS_AND_CENTRE[] = {0, 7, 27, 56, 63};
    for (size_t i = 0; i < sizeof CORNERS_AND_CENTRE / sizeof *CORNERS_AND_CENTRE; i++) {
        Square sq = CORNERS_AND_CENTRE[i];
        for (int type = BISHOP; type <= ROOK; type++) {
            Bitboard mask = slider_mask(type, sq), b = 0;
            do {
                Bitboard got = type == ROOK ? rook_attacks(sq, b) : bishop_attacks(sq, b);
                assert_true(got == slider_attacks_slow(type, sq, b));
                b = (b - mask) & mask;
            } while (b);
        }
    }
}

static void test_fen_round_trip(void **state)
{
    (void)state;
    static const char *fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 17 42",
        "4k3/8/8/8/8/8/8/4K2R b K - 99 120",
    };
    char out[FEN_MAX];
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        set(&pos, fens[i]);
        pos_to_fen(&pos, out);
        assert_string_equal(out, fens[i]);
    }
    // Chess960: Shredder-FEN written back as given.
    FILE *f = open_data("perft960.epd");
    char line[512];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        char *fen = line;
        *strchr(fen, ';') = '\0';
        for (size_t len = strlen(fen); len && fen[len - 1] == ' '; len--)
            fen[len - 1] = '\0';
        char err[128];
        assert_true(pos_set_fen(&pos, fen, true, err, sizeof err));
        pos_to_fen(&pos, out);
        assert_string_equal(out, fen);
        n++;
    }
    fclose(f);
    assert_int_equal(n, 960);
}

static void test_fen_defaults_and_forms(void **state)
{
    (void)state;
    char out[FEN_MAX];
    set(&pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    pos_to_fen(&pos, out);
    assert_string_equal(out, START_FEN);
    // X-FEN and Shredder-FEN letters name the same rights as KQkq here.
    set(&copy, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    assert_true(pos_key(&pos) == pos_key(&copy));
    assert_false(copy.chess960);
    // An en-passant square nobody can use is dropped, as it does not change the position.
    set(&pos, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_int_equal(pos_state(&pos)->ep, SQ_NONE);
}

static void test_fen_rejects(void **state)
{
    (void)state;
    static const char *bad[] = {
        "",                                                             // no fields
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",                 // too few fields
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x",   // too many fields
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",     // bad piece letter
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",     // bad digit
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",      // rank of 7
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",    // rank of 9
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",              // 7 ranks
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",   // 9 ranks
        "rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",     // no black king
        "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",     // two black kings
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNP w - - 0 1",        // pawn on rank 1
        "Pnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",        // pawn on rank 8
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",     // bad side
        "4k2R/8/8/8/8/8/8/4K3 w - - 0 1",                               // side not to move in check
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",     // K without rook
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w Qkq - 0 1",      // Q without king
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqz - 0 1",    // bad castling letter
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1",     // right given twice
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",  // ep on wrong rank
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",    // ep with no pawn
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",    // ep not a square
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",     // bad halfmove
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3",    // bad fullmove
    };
    char before[FEN_MAX], after[FEN_MAX], err[128];
    set(&pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    pos_to_fen(&pos, before);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        err[0] = '\0';
        if (pos_set_fen(&pos, bad[i], false, err, sizeof err))
            fail_msg("accepted bad FEN #%d: %s", (int)i, bad[i]);
        assert_true(strlen(err) > 0);
        pos_to_fen(&pos, after);
        assert_string_equal(before, after);
    }
}

// Walks the move tree to `depth`, checking at every node that make+unmake restores the
// position byte for byte, that the incremental key equals one computed from scratch and
// that pos_key_after foretold it (castling, en passant, promotions, lost rights).
static void walk(Position *p, int depth)
{
    assert_true(pos_state(p)->key == pos_compute_key(p));
    assert_true(pos_is_ok(p));
    if (depth == 0)
        return;
    MoveList list;
    gen_moves(p, &list, GEN_ALL);
    for (int i = 0; i < list.count; i++) {
        unsigned char saved[offsetof(Position, states)];
        memcpy(saved, p, sizeof saved);
        StateInfo st = *pos_state(p);
        Key foretold = pos_key_after(p, list.moves[i]);
        pos_make_move(p, list.moves[i]);
        assert_true(pos_key(p) == foretold);
        walk(p, depth - 1);
        pos_unmake_move(p, list.moves[i]);
        assert_memory_equal(saved, p, sizeof saved);
        assert_memory_equal(&st, pos_state(p), sizeof st);
    }
}

// Positions with every piece type, castling (Chess960 too), pins, en passant and
// promotions, for the tests that check a query or an update on all of them.
static const char *const varied_fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",
};

static void test_make_unmake_restores(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof varied_fens / sizeof *varied_fens; i++) {
        set(&pos, varied_fens[i]);
        walk(&pos, 3);
    }
}

static void test_null_move(void **state)
{
    (void)state;
    set(&pos, "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
    Key before = pos_key(&pos);
    pos_make_null(&pos);
    assert_int_equal(pos.side, WHITE);
    assert_int_equal(pos_state(&pos)->ep, SQ_NONE);
    assert_true(pos_key(&pos) == pos_compute_key(&pos));
    pos_unmake_null(&pos);
    assert_true(pos_key(&pos) == before);
}

static void play(Position *p, const char *moves)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        Move m = move_from_uci(p, tok);
        if (m == MOVE_NONE)
            fail_msg("illegal move %s", tok);
        pos_make_move(p, m);
    }
}

// pos_attacks_by (every square a side attacks) must agree with the square-by-square
// query.
static void test_attacks_by(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof varied_fens / sizeof *varied_fens; i++) {
        const char *fen = varied_fens[i];
        set(&pos, fen);
        for (int c = WHITE; c <= BLACK; c++) {
            Bitboard a = pos_attacks_by(&pos, c);
            for (Square sq = 0; sq < 64; sq++)
                if ((bool)((a >> sq) & 1) != pos_attacked_by(&pos, sq, c))
                    fail_msg("%s: colour %d, square %d", fen, c, (int)sq);
        }
    }
}

static void test_rule_queries(void **state)
{
    (void)state;
    set(&pos, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"); // stalemate
    assert_true(gen_is_stalemate(&pos));
    assert_false(gen_is_checkmate(&pos));
    set(&pos, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"); // mate
    assert_true(gen_is_checkmate(&pos));
    assert_false(gen_is_stalemate(&pos));

    set(&pos, START_FEN);
    play(&pos, "g1f3 g8f6 f3g1 f6g8");
    assert_false(pos_is_repetition(&pos, 0)); // second occurrence: not yet threefold
    assert_true(pos_is_repetition(&pos, 5));  // but a repeat inside the search tree counts
    play(&pos, "g1f3 g8f6 f3g1 f6g8");
    assert_true(pos_is_repetition(&pos, 0));

    set(&pos, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_false(pos_is_fifty_move_draw(&pos));
    play(&pos, "a1a2");
    assert_true(pos_is_fifty_move_draw(&pos));
    play(&pos, "e8d8 a2a3");
    assert_true(pos_is_fifty_move_draw(&pos));

    static const struct { const char *fen; bool draw; } material[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
        {"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
        {"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},
        {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},  // bishops on the same colour
        {"4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, // opposite colours can mate
        {"4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", false},
        {"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false},
        {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false},
    };
    for (size_t i = 0; i < sizeof material / sizeof *material; i++) {
        set(&pos, material[i].fen);
        assert_int_equal(pos_is_insufficient_material(&pos), material[i].draw);
    }
}

static void test_move_text(void **state)
{
    (void)state;
    char buf[MOVE_STR_MAX];
    set(&pos, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    Move m = move_from_uci(&pos, "e1g1");
    assert_true(move_is_castle(m));
    assert_true(move_from_uci(&pos, "e1h1") == m); // king takes rook also accepted
    move_to_uci(m, false, buf);
    assert_string_equal(buf, "e1g1");
    move_to_uci(m, true, buf);
    assert_string_equal(buf, "e1h1");
    assert_int_equal(move_from_uci(&pos, "e1e3"), MOVE_NONE);
    assert_int_equal(move_from_uci(&pos, "junk"), MOVE_NONE);
    set(&pos, "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1");
    m = move_from_uci(&pos, "e7e8n");
    assert_int_equal(move_promo_type(m), KNIGHT);
    assert_int_equal(move_from_uci(&pos, "e7e8"), MOVE_NONE);
    // In Chess960, a king next to its rook: "king to g1" and "king takes rook" differ.
    set(&pos, "rk5r/8/8/8/8/8/8/RK4R1 w GAh - 0 1");
    m = move_from_uci(&pos, "b1g1");
    assert_true(move_is_castle(m));
    move_to_uci(m, true, buf);
    assert_string_equal(buf, "b1g1");
}

static void test_san(void **state)
{
    (void)state;
    char buf[MOVE_STR_MAX];
    static const struct { const char *fen, *san, *uci; } cases[] = {
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "O-O-O", "e1c1"},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "Qxf6", "f3f6"},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "dxe6", "d5e6"},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "Nb1", "c3b1"},
        {"1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1", "Qd1+", "d6d1"},
        {"4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1", "b8=N", "b7b8n"},
        {"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "Rad1", "a1d1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        set(&pos, cases[i].fen);
        Move m = move_from_san(&pos, cases[i].san);
        move_to_uci(m, false, buf);
        assert_string_equal(buf, cases[i].uci);
    }
    set(&pos, "4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    assert_int_equal(move_from_san(&pos, "Rd1"), MOVE_NONE); // ambiguous
    assert_int_equal(move_from_san(&pos, "Nf3"), MOVE_NONE);
}

static void test_history_trim(void **state)
{
    (void)state;
    set(&pos, START_FEN);
    // 5000 knight shuffles (no captures or pawn moves): far more than states[] holds.
    for (int i = 0; i < 5000; i++) {
        play(&pos, i % 2 ? "f3g1 f6g8" : "g1f3 g8f6");
        assert_true(pos_trim_history(&pos));
    }
    assert_true(pos_is_repetition(&pos, 0));
    assert_true(pos_key(&pos) == pos_compute_key(&pos));
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slider_tables),
        cmocka_unit_test(test_fen_round_trip),
        cmocka_unit_test(test_fen_defaults_and_forms),
        cmocka_unit_test(test_fen_rejects),
        cmocka_unit_test(test_make_unmake_restores),
        cmocka_unit_test(test_null_move),
        cmocka_unit_test(test_attacks_by),
        cmocka_unit_test(test_rule_queries),
        cmocka_unit_test(test_move_text),
        cmocka_unit_test(test_san),
        cmocka_unit_test(test_history_trim),
    };
    return cmocka_run_group_tests_name("position", tests, NULL, NULL);
}
