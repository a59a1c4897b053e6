// SPDX-License-Identifier: MIT
// Labels positions near the data's with a network's static evaluation (docs/NNUE.md,
// "Labelled by a network"): for each record that tools/train would train on (not in its
// held-out blocks, not one its reader skips), up to K children of the position, chosen at
// random, that are quiet (not in check, no capture that wins material by SEE for the side
// to move), each written as a record scored by the network (side to move's view), with no
// best move and the parent game's result. A network grown into a new shape (king buckets, a
// wider layer) learns from them what the network it grew from computes, on many more
// positions than the searches scored, before and beside the searched data; train takes them
// with -d (trained on, never held out). With net 8 as the teacher of its own growth they
// made the student worse (docs/NETWORKS.md, 2026-12-02): a teacher must know more than the
// searched data say.
//
//   distill OUT.bin NET [-k K] [-s SEED] DATA...   DATA: datagen folders or .bin files
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "movegen.h"
#include "nnue.h"
#include "nnue_train.h"
#include "records.h"
#include "psqt.h"
#include "rng.h"
#include "see.h"
#include "zobrist.h"

typedef struct {
    const Nnue *net;
    int k;
    uint64_t rng;
    FILE *out;
    long parents, held, skipped, children, written, not_quiet;
} Distiller;

// Whether the side to move has a capture or promotion that wins material by SEE: the
// static evaluation of such a position misses what quiescence would see.
static bool has_winning_noisy(const Position *pos)
{
    MoveList list;
    gen_moves(pos, &list, GEN_NOISY);
    for (int i = 0; i < list.count; i++)
        if (see_ge(pos, list.moves[i], 1))
            return true;
    return false;
}

// Writes the chosen children of one record; false when the output fails.
static bool distill_record(Distiller *d, const PackedPos *rec)
{
    static Position pos;
    UnpackedPos u;
    Sample s;
    char err[128];
    if (!nn_sample(rec, 0.0f, NULL, &s) || !packpos_unpack(rec, &u) || !pos_set_fen(&pos, u.fen, false, err, sizeof err)) {
        d->skipped++;
        return true;
    }
    d->parents++;
    MoveList list;
    gen_moves(&pos, &list, GEN_ALL);
    // A partial Fisher-Yates shuffle: the first K moves of a random order.
    for (int i = 0; i < d->k && i < list.count; i++) {
        int j = i + (int)(rng_next(&d->rng) % (uint64_t)(list.count - i));
        Move m = list.moves[j];
        list.moves[j] = list.moves[i];
        list.moves[i] = m;
        d->children++;
        pos_make_move(&pos, m);
        bool ok = true;
        if (pos_in_check(&pos) || has_winning_noisy(&pos)) {
            d->not_quiet++;
        } else {
            Accumulator acc;
            nnue_refresh(d->net, &pos, &acc);
            Score score = nnue_evaluate(d->net, &acc, pos.side, popcount(pos_occupied(&pos)));
            PackedPos child;
            packpos_pack(&pos, score, MOVE_NONE, u.result, &child);
            ok = fwrite(&child, sizeof child, 1, d->out) == 1;
            d->written += ok;
        }
        pos_unmake_move(&pos, m);
        if (!ok)
            return false;
    }
    return true;
}

static bool distill_one(const PackedPos *rec, size_t i, void *ctx)
{
    Distiller *d = ctx;
    if (nn_held_out(i)) { // train's held-out games stay unseen
        d->held++;
        return true;
    }
    if (distill_record(d, rec))
        return true;
    fprintf(stderr, "distill: write failed\n");
    return false;
}

static int usage(void)
{
    fprintf(stderr, "usage: distill OUT.bin NET [-k K] [-s SEED] DATA...\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return usage();
    attacks_init();
    zobrist_init();
    psqt_init();
    static Nnue net;
    char err[256];
    if (!nnue_load(&net, argv[2], err, sizeof err)) {
        fprintf(stderr, "distill: %s\n", err);
        return 1;
    }
    Distiller d = {.net = &net, .k = 4, .rng = 1};
    int i = 3;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        char *end;
        long v = strtol(argv[i + 1], &end, 10);
        if (*end || v < 1 || (!strcmp(argv[i], "-k") && v > MAX_MOVES))
            return usage();
        if (!strcmp(argv[i], "-k"))
            d.k = (int)v;
        else if (!strcmp(argv[i], "-s"))
            d.rng = (uint64_t)v;
        else
            return usage();
    }
    if (i >= argc)
        return usage();
    d.out = fopen(argv[1], "wb");
    if (!d.out) {
        fprintf(stderr, "distill: cannot write %s\n", argv[1]);
        return 1;
    }
    bool ok = true;
    for (; i < argc && ok; i++)
        ok = records_for_each(argv[i], "distill", distill_one, &d);
    ok = fclose(d.out) == 0 && ok;
    nnue_free(&net);
    printf("%ld records used, %ld held out, %ld skipped (in check, noisy best move, mate score); %ld children "
           "tried, %ld not quiet, %ld written\n",
           d.parents, d.held, d.skipped, d.children, d.not_quiet, d.written);
    return ok ? 0 : 1;
}
