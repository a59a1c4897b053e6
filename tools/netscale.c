// SPDX-License-Identifier: MIT
// Brings a network's evaluations to another network's scale (docs/NETWORKS.md, "The
// evaluations' scale"): each generation trained on the previous one's search scores
// evaluates larger than its teacher (a 5,000-node search scores further from 0 than the
// static evaluation it started from), while the search's margins stay those fitted to an
// older network. The output layer is multiplied by one factor, so the network's
// judgement (the order of its evaluations) is unchanged.
//
//   netscale OUT.nnue NET.nnue -f FACTOR            NET's output times FACTOR
//   netscale OUT.nnue NET.nnue -r REF.nnue DATA...  the factor that fits NET's outputs to
//                                                   REF's on DATA's held-out records
//
// The fitted factor is the least-squares f of REF's output = f x NET's output, over the
// records tools/train would hold out (quiet positions from games neither network need
// have trained on), both read in the float form of their exports.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "nnue_train.h"
#include "records.h"
#include "psqt.h"
#include "zobrist.h"

typedef struct {
    const Net *net, *ref;
    double xy, yy, sum_net, sum_ref;
    long used;
} Fit;

static bool fit_record(const PackedPos *rec, size_t i, void *ctx)
{
    Fit *fit = ctx;
    Sample s;
    if (!nn_held_out(i) || !nn_sample(rec, 0.0f, &fit->net->in, &s))
        return true;
    double y = nn_forward(fit->net, &s);
    nn_decode(rec, 0.0f, false, &fit->ref->in, &s);
    double x = nn_forward(fit->ref, &s);
    fit->xy += x * y;
    fit->yy += y * y;
    fit->sum_net += fabs(y);
    fit->sum_ref += fabs(x);
    fit->used++;
    return true;
}

// Loads an exported network into its float form.
static bool load_net(const char *path, Net *net)
{
    static Nnue q;
    char err[256] = "";
    if (!nnue_load(&q, path, err, sizeof err)) {
        fprintf(stderr, "netscale: %s\n", err);
        return false;
    }
    bool ok = nn_from_export(net, &q);
    nnue_free(&q);
    if (!ok)
        fprintf(stderr, "netscale: out of memory\n");
    return ok;
}

static int usage(void)
{
    fprintf(stderr, "usage: netscale OUT.nnue NET.nnue (-f FACTOR | -r REF.nnue DATA...)\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc < 5 || (strcmp(argv[3], "-f") && strcmp(argv[3], "-r")) || (!strcmp(argv[3], "-f") && argc != 5)
        || (!strcmp(argv[3], "-r") && argc < 6))
        return usage();
    attacks_init();
    zobrist_init();
    psqt_init();
    Net net;
    if (!load_net(argv[2], &net))
        return 1;
    double factor;
    if (!strcmp(argv[3], "-f")) {
        char *end;
        factor = strtod(argv[4], &end);
        if (*end || !(factor > 0.0 && factor < 100.0))
            return usage();
    } else {
        Net ref;
        if (!load_net(argv[4], &ref))
            return 1;
        Fit fit = {.net = &net, .ref = &ref};
        for (int i = 5; i < argc; i++)
            if (!records_for_each(argv[i], "netscale", fit_record, &fit))
                return 1;
        nn_free(&ref);
        if (fit.used == 0 || fit.yy <= 0) {
            fprintf(stderr, "netscale: no held-out record to fit on\n");
            return 1;
        }
        factor = fit.xy / fit.yy;
        printf("%ld held-out records: mean |output| %.1f cp (%s), %.1f cp (%s); factor %.4f\n", fit.used,
               fit.sum_net / (double)fit.used * NNUE_SCALE, argv[2], fit.sum_ref / (double)fit.used * NNUE_SCALE,
               argv[4], factor);
    }
    size_t clipped = nn_scale_output(&net, (float)factor);
    if (!nn_export(&net, argv[1])) {
        fprintf(stderr, "netscale: cannot write %s\n", argv[1]);
        return 1;
    }
    printf("%s: %s with its output times %.4f (%zu output weights clipped at %.2f)\n", argv[1], argv[2], factor,
           clipped, (double)NN_CLIP);
    nn_free(&net);
    return 0;
}
