// SPDX-License-Identifier: MIT
// The engine's network evaluation (src/nnue.c) with networks made by the trainer's core,
// one with the plain 768 inputs and one with four king buckets (version 3): the engine's
// accumulators give exactly the trainer's reference evaluation, incremental updates equal
// a refresh after every move of random games (castling, en passant, promotions and king
// moves across buckets and the mirror included), a position and its colour mirror
// evaluate alike, every feature index matches its definition written out, and broken
// files are refused. The two networks' output layers are on different grids (QB); a third,
// of 40 neurons, takes the SIMD output layer with a scalar tail.
#include "test_util.h"

#include <ctype.h>

#include "movegen.h"
#include "nnue.h"
#include "nnue_train.h"
#include "rng.h"

static Nnue net, kb_net, odd_net; // the plain inputs; four king buckets; H 40
static Position pos;

// Draws a float network of the given inputs (NULL: the plain 768), width and seed, with
// the feature biases at 0.3 (accumulators inside SCReLU's range for the most part), and
// loads its export from path into out. One large output weight, with output biases apart,
// puts the export on the 1/64 grid; without it the weights are small and take a finer one.
static bool make_test_net(Nnue *out, const NnueInputs *in, int hidden, uint64_t seed, bool large_weight,
                          const char *path)
{
    Net f;
    if (!nn_alloc(&f, in, hidden, NNUE_MAX_BUCKETS, seed)) // every bucket's weights drawn apart
        return false;
    for (int j = 0; j < hidden; j++)
        f.ft_b[j] = 0.3f;
    if (large_weight) {
        for (int b = 0; b < NNUE_MAX_BUCKETS; b++)
            f.out_b[b] = 0.05f * (float)(b - 3);
        f.out_w[5] = 1.9f;
    }
    char err[256];
    bool ok = nn_export(&f, path) && nnue_load(out, path, err, sizeof err);
    nn_free(&f);
    return ok;
}

static int group_setup(void **state)
{
    (void)state;
    init_tables();
    NnueInputs in;
    bool ok = make_test_net(&net, NULL, 64, 3, true, "build/test_nnue.nnue") && nn_king_layout(4, &in)
              && make_test_net(&kb_net, &in, 64, 4, false, "build/test_nnue_kb.nnue")
              && make_test_net(&odd_net, NULL, 40, 5, false, "build/test_nnue_odd.nnue");
    // Both grids are checked against the reference. The trainer's exports keep every output
    // weight within +-127: the SIMD output layer (where the build has one) serves all three.
    return ok && kb_net.inputs.kbuckets == 4 && net.qb == NNUE_QB && kb_net.qb > NNUE_QB && net.small_out
                   && kb_net.small_out && odd_net.small_out && odd_net.hidden == 40
             ? 0
             : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    nnue_free(&net);
    nnue_free(&kb_net);
    nnue_free(&odd_net);
    remove("build/test_nnue.nnue");
    remove("build/test_nnue_kb.nnue");
    remove("build/test_nnue_odd.nnue");
    return 0;
}

// The trainer's sample of pos for the inputs of nt (its features, side to move first).
static void sample_of(const Nnue *nt, const Position *p, Sample *s)
{
    s->n = 0;
    Square king_us = pos_king(p, p->side), king_them = pos_king(p, !p->side);
    for (Bitboard occ = pos_occupied(p); occ;) {
        Square sq = pop_lsb(&occ);
        s->us[s->n] = (uint16_t)nnue_feature_in(&nt->inputs, p->side, p->board[sq], sq, king_us);
        s->them[s->n++] = (uint16_t)nnue_feature_in(&nt->inputs, !p->side, p->board[sq], sq, king_them);
    }
    s->target = 0;
}

static void check_matches_reference_of(const Nnue *nt)
{
    FILE *f = open_data("perft.epd");
    char line[512], err[128];
    int n = 0, nonzero = 0;
    while (fgets(line, sizeof line, f)) {
        *strchr(line, ';') = '\0';
        assert_true(pos_set_fen(&pos, line, false, err, sizeof err));
        Accumulator acc;
        nnue_refresh(nt, &pos, &acc);
        Sample s;
        sample_of(nt, &pos, &s);
        Score got = nnue_evaluate(nt, &acc, pos.side, popcount(pos_occupied(&pos)));
        assert_int_equal(got, qnn_eval(nt, &s));
        nonzero += got != 0;
        n++;
    }
    fclose(f);
    assert_true(nonzero > n / 2);
}

static void test_matches_reference(void **state)
{
    (void)state;
    check_matches_reference_of(&net);
    check_matches_reference_of(&kb_net);
    check_matches_reference_of(&odd_net);
}

static uint64_t rng_state = 2;
static uint64_t next(void) { return rng_next(&rng_state); }

static void check_incremental_of(const Nnue *nt)
{
    static const char *const FENS[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    };
    static Accumulator stack[130];
    char err[128];
    int moves = 0, kinds[4] = {0}, crossings = 0; // castles, en passant, promotions, captures
    static NnueCache cache; // kept over the games, as a search thread keeps it over a search
    nnue_cache_reset(&cache);
    for (int game = 0; game < 200; game++) {
        assert_true(pos_set_fen(&pos, FENS[game % 4], false, err, sizeof err));
        nnue_refresh(nt, &pos, &stack[0]);
        for (int ply = 0; ply < 120; ply++) {
            MoveList list;
            gen_moves(&pos, &list, GEN_ALL);
            if (list.count == 0)
                break;
            Move m = list.moves[next() % (uint64_t)list.count];
            kinds[0] += move_is_castle(m);
            kinds[1] += move_is_ep(m);
            kinds[2] += move_is_promo(m);
            kinds[3] += move_is_capture(m);
            // King moves that rebuild the mover's perspective (across a bucket or the mirror).
            crossings += piece_type(pos.board[move_from(m)]) == KING && !move_is_castle(m)
                      && nnue_king_changes_view(&nt->inputs, pos.side, move_from(m), move_to(m));
            NnueDelta d;
            nnue_delta(&pos, m, &d);
            pos_make_move(&pos, m);
            nnue_apply(nt, &stack[ply], &stack[ply + 1], &d, &pos, game % 2 ? &cache : NULL); // both rebuilds
            Accumulator fresh;
            nnue_refresh(nt, &pos, &fresh);
            for (int c = 0; c < 2; c++)
                assert_memory_equal(fresh.v[c], stack[ply + 1].v[c], (size_t)nt->hidden * sizeof(int16_t));
            moves++;
        }
    }
    print_message("%d king buckets, %d moves: %d castles, %d en passant, %d promotions, %d captures, %d king moves "
                  "across buckets or the mirror\n", nt->inputs.kbuckets, moves, kinds[0], kinds[1], kinds[2], kinds[3],
                  crossings);
    assert_true(kinds[0] > 0 && kinds[1] > 0 && kinds[2] > 0 && kinds[3] > 0);
    assert_true(nt->inputs.kbuckets ? crossings > 50 : crossings == 0);
}

static void test_incremental(void **state)
{
    (void)state;
    check_incremental_of(&net);
    check_incremental_of(&kb_net);
}

// The FEN of pos with the colours swapped and the board mirrored top to bottom.
static void mirror_fen(const char *fen, char *out)
{
    char board[100], side[4], castle[8], ep[4];
    assert_int_equal(sscanf(fen, "%99s %3s %7s %3s", board, side, castle, ep), 4);
    char *ranks[8];
    int n = 0;
    for (char *r = strtok(board, "/"); r && n < 8; r = strtok(NULL, "/"))
        ranks[n++] = r;
    assert_int_equal(n, 8);
    out[0] = '\0';
    for (int i = 7; i >= 0; i--) {
        for (char *c = ranks[i]; *c; c++)
            *c = (char)(isupper((unsigned char)*c) ? tolower((unsigned char)*c) : toupper((unsigned char)*c));
        strcat(out, ranks[i]);
        if (i)
            strcat(out, "/");
    }
    char rights[8] = "";
    int k = 0;
    for (const char *c = "KQkq"; *c; c++)
        if (strchr(castle, isupper((unsigned char)*c) ? tolower((unsigned char)*c) : toupper((unsigned char)*c)))
            rights[k++] = *c;
    rights[k] = '\0';
    if (ep[0] != '-')
        ep[1] = ep[1] == '3' ? '6' : '3';
    sprintf(out + strlen(out), " %s %s %s 0 1", side[0] == 'w' ? "b" : "w", rights[0] ? rights : "-", ep);
}

static void check_symmetry_of(const Nnue *nt)
{
    FILE *f = open_data("perft.epd");
    char line[512], mirrored[128], err[128];
    static Position other;
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        *strchr(line, ';') = '\0';
        assert_true(pos_set_fen(&pos, line, false, err, sizeof err));
        mirror_fen(line, mirrored);
        if (!pos_set_fen(&other, mirrored, false, err, sizeof err))
            fail_msg("mirror of %s: %s (%s)", line, mirrored, err);
        Accumulator a, b;
        nnue_refresh(nt, &pos, &a);
        nnue_refresh(nt, &other, &b);
        assert_int_equal(nnue_evaluate(nt, &a, pos.side, popcount(pos_occupied(&pos))),
                         nnue_evaluate(nt, &b, other.side, popcount(pos_occupied(&other))));
        n++;
    }
    fclose(f);
    assert_true(n > 100);
}

// The feature index as docs/NNUE.md defines it, written out apart from the header's
// lookup: own pieces (by type) first, then the opponent's; black's view mirrored.
static void test_feature_index(void **state)
{
    (void)state;
    for (int view = 0; view < 2; view++)
        for (int piece = 0; piece < 12; piece++)
            for (int sq = 0; sq < 64; sq++) {
                int color = piece < 6 ? 0 : 1, type = piece < 6 ? piece : piece - 6;
                int want = ((color == view ? 0 : 6) + type) * 64 + (view == 0 ? sq : 8 * (7 - sq / 8) + sq % 8);
                if (nnue_feature(view, piece, sq) != want)
                    fail_msg("view %d piece %d square %d: feature %d, not %d", view, piece, sq,
                             nnue_feature(view, piece, sq), want);
            }
}

static void test_symmetry(void **state)
{
    (void)state;
    check_symmetry_of(&net);
    check_symmetry_of(&kb_net);
}

static void test_broken_files(void **state)
{
    (void)state;
    Nnue other = {0};
    char err[256];
    assert_false(nnue_load(&other, "build/no such net.nnue", err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    assert_false(nnue_load(&other, "tests/data/nnue_sample.bin", err, sizeof err));
    assert_non_null(strstr(err, "is not an Outpost"));
    assert_int_equal(system("head -c 5000 build/test_nnue.nnue > build/test_nnue_cut.nnue"), 0);
    assert_false(nnue_load(&other, "build/test_nnue_cut.nnue", err, sizeof err));
    assert_non_null(strstr(err, "truncated or corrupt"));
    assert_null(other.memory);
    // QB other than a power of two from 64 to 1024 (header word 6) is not ours.
    static uint8_t bytes[1 << 20];
    FILE *f = fopen("build/test_nnue.nnue", "rb");
    assert_non_null(f);
    size_t size = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    const uint32_t bad_qb[] = {32, 96, 2048};
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 4; k++)
            bytes[24 + k] = (uint8_t)(bad_qb[i] >> (8 * k));
        assert_false(nnue_load_memory(&other, bytes, size, "qb", err, sizeof err));
        assert_non_null(strstr(err, "is not an Outpost"));
    }
    for (int k = 0; k < 4; k++) // 64 again: the same bytes load
        bytes[24 + k] = (uint8_t)(NNUE_QB >> (8 * k));
    assert_true(nnue_load_memory(&other, bytes, size, "qb", err, sizeof err));
    nnue_free(&other);
    Net wide;
    assert_true(nn_alloc(&wide, NULL, NNUE_MAX_HIDDEN + 8, 1, 1));
    assert_true(nn_export(&wide, "build/test_nnue_cut.nnue"));
    nn_free(&wide);
    assert_false(nnue_load(&other, "build/test_nnue_cut.nnue", err, sizeof err));
    assert_non_null(strstr(err, "at most 512"));
    assert_true(nn_alloc(&wide, NULL, 8, NNUE_MAX_BUCKETS + 1, 1));
    assert_false(nn_export(&wide, "build/test_nnue_cut.nnue")); // more buckets than the engine reads
    nn_free(&wide);
    remove("build/test_nnue_cut.nnue");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_reference),
        cmocka_unit_test(test_incremental),
        cmocka_unit_test(test_symmetry),
        cmocka_unit_test(test_feature_index),
        cmocka_unit_test(test_broken_files),
    };
    return cmocka_run_group_tests_name("nnue", tests, group_setup, group_teardown);
}
