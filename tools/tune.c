// SPDX-License-Identifier: MIT
// Texel's method: fits the evaluation's weights (weights.h) to game results by
// minimising the mean squared error between each position's result r (1, 0.5, 0 for
// white) and sigmoid(K * eval / 400) = 1 / (1 + 10^(-K * eval / 400)). The evaluation
// is linear in the weights given a position's trace (eval.h), so the gradient is exact
// and every epoch runs over all positions (Adam steps). One position in ten is held
// out (or, with -t FILE, all of FILE's positions, from other games), and the error on
// it is printed beside the training error.
// An optional L2 penalty (-l LAMBDA) pulls each weight towards its starting value, so
// that weights seen in few positions do not chase noise.
// Usage: tune [-o weights.c] [-e EPOCHS] [-r RATE] [-l LAMBDA] [-t HELD_OUT] [-s SOURCE_NOTE] DATA...
//   DATA lines: "<FEN> [1.0]" as tools/datagen writes them.
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attacks.h"
#include "eval.h"
#include "psqt.h"
#include "zobrist.h"

typedef struct {
    uint16_t index;
    int16_t coef;
} Term;

// One training position: its nonzero trace terms live in terms[first .. first+count).
typedef struct {
    size_t first;
    int count;
    float result;
    float mg_factor; // phase / 24
    float eg_factor; // scale / 64 * (24 - phase) / 24
    float tempo;     // +TEMPO or -TEMPO: the evaluation's constant part, white's view
} Sample;

typedef struct {
    Sample *samples;
    size_t n, cap;
    Term *terms;
    size_t n_terms, cap_terms;
} Data;

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    *cap = need * 2;
    p = realloc(p, *cap * size);
    if (!p) {
        fprintf(stderr, "tune: out of memory\n");
        exit(1);
    }
    return p;
}

static void add_sample(Data *d, const Position *pos, float result)
{
    EvalTrace trace;
    eval_trace(pos, &trace);
    d->samples = grow(d->samples, &d->cap, d->n + 1, sizeof *d->samples);
    Sample *s = &d->samples[d->n++];
    s->first = d->n_terms;
    s->count = 0;
    s->result = result;
    s->mg_factor = trace.phase / 24.0f;
    s->eg_factor = trace.scale / 64.0f * (24 - trace.phase) / 24.0f;
    // eval_from_trace with all weights 0 is the constant part (the tempo).
    static const double zero[WT_NB][2];
    s->tempo = (float)eval_from_trace(&trace, zero, pos->side);
    for (int i = 0; i < WT_NB; i++) {
        if (!trace.coef[i])
            continue;
        d->terms = grow(d->terms, &d->cap_terms, d->n_terms + 1, sizeof *d->terms);
        d->terms[d->n_terms++] = (Term){(uint16_t)i, trace.coef[i]};
        s->count++;
    }
}

// Loads a data file: every tenth position into test and the rest into train, or all
// into whichever of the two is given.
static void load(Data *train, Data *test, const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        exit(1);
    }
    static Position pos;
    char line[512], err[128];
    long n = 0, bad = 0;
    while (fgets(line, sizeof line, in)) {
        char *bracket = strchr(line, '[');
        if (!bracket) {
            bad++;
            continue;
        }
        float result = strtof(bracket + 1, NULL);
        *bracket = '\0';
        if (!pos_set_fen(&pos, line, false, err, sizeof err) || (result != 0 && result != 0.5f && result != 1)) {
            bad++;
            continue;
        }
        add_sample(!train || (test && n % 10 == 9) ? test : train, &pos, result);
        n++;
    }
    fclose(in);
    fprintf(stderr, "%s: %ld positions, %ld lines skipped\n", path, n, bad);
}

static double eval_sample(const Data *d, const Sample *s, const double (*w)[2])
{
    double mg = 0, eg = 0;
    for (int k = 0; k < s->count; k++) {
        const Term *t = &d->terms[s->first + (size_t)k];
        mg += t->coef * w[t->index][0];
        eg += t->coef * w[t->index][1];
    }
    return mg * s->mg_factor + eg * s->eg_factor + s->tempo;
}

static double sigmoid(double k, double eval) { return 1.0 / (1.0 + pow(10.0, -k * eval / 400.0)); }

static double mean_error(const Data *d, const double (*w)[2], double k)
{
    double sum = 0;
    for (size_t i = 0; i < d->n; i++) {
        double e = d->samples[i].result - sigmoid(k, eval_sample(d, &d->samples[i], w));
        sum += e * e;
    }
    return sum / (double)(d->n ? d->n : 1);
}

// The K that best maps the starting evaluation to results (golden-section search).
static double fit_k(const Data *d, const double (*w)[2])
{
    double lo = 0.1, hi = 5.0, g = (sqrt(5.0) - 1) / 2;
    for (int i = 0; i < 40; i++) {
        double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        if (mean_error(d, w, a) < mean_error(d, w, b))
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

static void gradient(const Data *d, const double (*w)[2], double k, double (*grad)[2])
{
    memset(grad, 0, sizeof(double[WT_NB][2]));
    double c = k * log(10.0) / 400.0;
    for (size_t i = 0; i < d->n; i++) {
        const Sample *s = &d->samples[i];
        double sig = sigmoid(k, eval_sample(d, s, w));
        // d(error)/d(eval), the factor 2/n left to the step size.
        double de = (sig - s->result) * sig * (1 - sig) * c;
        for (int j = 0; j < s->count; j++) {
            const Term *t = &d->terms[s->first + (size_t)j];
            grad[t->index][0] += de * t->coef * s->mg_factor;
            grad[t->index][1] += de * t->coef * s->eg_factor;
        }
    }
}

typedef struct {
    const char *title;
    int first, count, per_row;
} Section;

static const char *const PIECE_NAMES[PIECE_TYPE_NB] = {"pawn", "knight", "bishop", "rook", "queen", "king"};

// Writes the weights as src/weights.c, in the layout weights.h describes.
static void write_weights(FILE *out, const double (*w)[2], const char *source)
{
    Section sections[32];
    int n = 0;
    char titles[32][128];
    sections[n++] = (Section){"piece values: pawn, knight, bishop, rook, queen, king", WT_PIECE_VALUE, PIECE_TYPE_NB, 6};
    for (int t = PAWN; t <= KING; t++) {
        snprintf(titles[t], sizeof titles[t], "square bonus, %s: ranks 1..8 from its own side, files a..d (e..h mirror them)",
                 PIECE_NAMES[t]);
        sections[n++] = (Section){titles[t], WT_PSQT + 32 * t, 32, 4};
    }
    static const int MOB_NB[PIECE_TYPE_NB] = {0, MOBILITY_KNIGHT_NB, MOBILITY_BISHOP_NB, MOBILITY_ROOK_NB, MOBILITY_QUEEN_NB, 0};
    for (int t = KNIGHT; t <= QUEEN; t++) {
        snprintf(titles[8 + t], sizeof titles[8 + t], "mobility, %s: 0..%d safe squares", PIECE_NAMES[t], MOB_NB[t] - 1);
        sections[n++] = (Section){titles[8 + t], weight_mobility(t, 0), MOB_NB[t], 8};
    }
    sections[n++] = (Section){"passed pawn by relative rank", WT_PASSED, 8, 8};
    sections[n++] = (Section){"passed pawn with a clear path, extra by relative rank", WT_PASSED_FREE, 8, 8};
    sections[n++] = (Section){"isolated pawn, doubled pawn", WT_ISOLATED, 2, 2};
    sections[n++] = (Section){"rook on an open file, on a half-open file", WT_ROOK_OPEN, 2, 2};
    sections[n++] = (Section){"bishop pair", WT_BISHOP_PAIR, 1, 1};
    sections[n++] = (Section){"king shelter, per pawn", WT_SHELTER, 1, 1};
    sections[n++] = (Section){"king danger by attack units (two or more attackers with the queen)", WT_KING_DANGER,
                              KING_DANGER_NB, 8};
    fprintf(out, "// SPDX-License-Identifier: MIT\n"
                 "// The evaluation's weights, layout in weights.h. Written by tools/tune (docs/TUNING.md):\n"
                 "// change them by rerunning it, not by hand.\n"
                 "// Source: %s.\n"
                 "#include \"weights.h\"\n\n"
                 "const Weight eval_weights[WT_NB] = {\n",
            source);
    for (int s = 0; s < n; s++) {
        fprintf(out, "    // %s\n", sections[s].title);
        for (int i = 0; i < sections[s].count; i += sections[s].per_row) {
            fprintf(out, "    ");
            if (i == 0)
                fprintf(out, "[%d] = ", sections[s].first);
            for (int j = i; j < i + sections[s].per_row && j < sections[s].count; j++) {
                int idx = sections[s].first + j;
                fprintf(out, "%s{%ld, %ld}", j > i ? ", " : "", lround(w[idx][0]), lround(w[idx][1]));
            }
            fprintf(out, ",\n");
        }
    }
    fprintf(out, "};\n");
}

int main(int argc, char **argv)
{
    const char *out_path = NULL, *source = "tools/tune";
    int epochs = 2000;
    double rate = 1.0, lambda = 0;
    Data train = {0}, test = {0};
    attacks_init();
    zobrist_init();
    psqt_init();
    int files = 0;
    bool split = true; // hold out a tenth of DATA unless -t gives a held-out file
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "-t"))
            split = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc)
            out_path = argv[++i];
        else if (!strcmp(argv[i], "-e") && i + 1 < argc)
            epochs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r") && i + 1 < argc)
            rate = atof(argv[++i]);
        else if (!strcmp(argv[i], "-t") && i + 1 < argc)
            load(NULL, &test, argv[++i]);
        else if (!strcmp(argv[i], "-l") && i + 1 < argc)
            lambda = atof(argv[++i]);
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            source = argv[++i];
        else {
            load(&train, split ? &test : NULL, argv[i]);
            files++;
        }
    }
    if (!files || train.n == 0) {
        fprintf(stderr, "usage: tune [-o weights.c] [-e EPOCHS] [-r RATE] [-l LAMBDA] [-t HELD_OUT] [-s SOURCE_NOTE] DATA...\n");
        return 2;
    }
    static double w[WT_NB][2], start[WT_NB][2], grad[WT_NB][2], m[WT_NB][2], v[WT_NB][2];
    for (int i = 0; i < WT_NB; i++) {
        w[i][0] = start[i][0] = eval_weights[i].mg;
        w[i][1] = start[i][1] = eval_weights[i].eg;
    }
    double k = fit_k(&train, (const double(*)[2])w);
    fprintf(stderr, "%zu training and %zu held-out positions, %zu terms; K = %.4f\n", train.n, test.n, train.n_terms, k);
    fprintf(stderr, "epoch 0: error %.6f, held out %.6f\n", mean_error(&train, (const double(*)[2])w, k),
            mean_error(&test, (const double(*)[2])w, k));
    // Adam: per-weight step sizes, so rarely counted weights still move.
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    for (int e = 1; e <= epochs; e++) {
        gradient(&train, (const double(*)[2])w, k, grad);
        for (int i = 0; i < WT_NB; i++) {
            for (int p = 0; p < 2; p++) {
                double g = grad[i][p] / (double)train.n + lambda * (w[i][p] - start[i][p]);
                m[i][p] = beta1 * m[i][p] + (1 - beta1) * g;
                v[i][p] = beta2 * v[i][p] + (1 - beta2) * g * g;
                double mh = m[i][p] / (1 - pow(beta1, e)), vh = v[i][p] / (1 - pow(beta2, e));
                w[i][p] -= rate * mh / (sqrt(vh) + eps);
            }
        }
        if (e % 100 == 0 || e == epochs)
            fprintf(stderr, "epoch %d: error %.6f, held out %.6f\n", e, mean_error(&train, (const double(*)[2])w, k),
                    mean_error(&test, (const double(*)[2])w, k));
    }
    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) {
        perror(out_path);
        return 1;
    }
    write_weights(out, (const double(*)[2])w, source);
    if (out != stdout)
        fclose(out);
    free(train.samples);
    free(train.terms);
    free(test.samples);
    free(test.terms);
    return 0;
}
