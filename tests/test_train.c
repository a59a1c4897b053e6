// SPDX-License-Identifier: MIT
// The network trainer's core (tools/nnue_train.c): the gradient against finite
// differences, the quantised export against the float network, and that one epoch on the
// committed sample (tests/data/nnue_sample.bin, 3,000 datagen records) lowers the loss;
// with one output bucket and with several; the data reader walks folders and files in order.
#define _POSIX_C_SOURCE 200809L // mkdtemp, rmdir
#include "test_util.h"

#include <math.h>
#include <unistd.h>

#include "nnue_train.h"
#include "records.h"

// The sample's records that training keeps, as samples of the inputs `in` (NULL: plain).
static int load_samples(Sample *out, int max, const NnueInputs *in)
{
    FILE *f = open_data("nnue_sample.bin");
    PackedPos p;
    int n = 0;
    while (n < max && fread(&p, sizeof p, 1, f) == 1)
        if (nn_sample(&p, 0.5f, in, &out[n])) {
            Sample fast;
            nn_decode(&p, 0.5f, false, in, &fast); // the fast decoder agrees with the checked one
            assert_int_equal(fast.n, out[n].n);
            assert_memory_equal(fast.us, out[n].us, sizeof fast.us[0] * (size_t)fast.n);
            assert_memory_equal(fast.them, out[n].them, sizeof fast.them[0] * (size_t)fast.n);
            assert_true(fabsf(fast.target - out[n].target) < 1e-6f);
            n++;
        }
    fclose(f);
    return n;
}

static float loss_of(const Net *net, const Sample *s)
{
    float d = 1.0f / (1.0f + expf(-nn_forward(net, s))) - s->target;
    return d * d;
}

// Central differences (eps 0.01) on every parameter of a 4-neuron network of 8 output
// buckets for 8 samples spread over the sample file, skipping the entries whose derivative jumps within +-eps (an
// accumulator next to one of SCReLU's kinks at 0 and 1), which must stay a small minority.
// With `in` (king buckets) and `factor`, the shared rows' gradient too.
static void check_gradient(const NnueInputs *in, bool factor)
{
    static Sample all[3000], samples[8];
    int n_all = load_samples(all, 3000, in);
    assert_true(n_all > 1000);
    for (int k = 0; k < 8; k++) // spread over the games: openings to endings
        samples[k] = all[k * (n_all / 8)];
    Net net;
    assert_true(nn_alloc(&net, in, 4, NNUE_MAX_BUCKETS, 7));
    if (factor) { // shared rows as random as the others, so that both matter
        assert_true(nn_add_factor(&net));
        size_t rows = (size_t)nnue_input_count(in) * 4;
        for (size_t i = 0; i < 768 * 4; i++)
            net.ft_w[rows + i] = net.ft_w[i];
    }
    for (int j = 0; j < 4; j++)
        net.ft_b[j] = 0.5f; // accumulators inside (0, 1) for the most part
    for (int b = 0; b < NNUE_MAX_BUCKETS; b++)
        net.out_b[b] = 0.1f;
    int used[NNUE_MAX_BUCKETS] = {0}, n_used = 0;
    for (int k = 0; k < 8; k++)
        used[nnue_bucket(NNUE_MAX_BUCKETS, samples[k].n)] = 1;
    for (int b = 0; b < NNUE_MAX_BUCKETS; b++)
        n_used += used[b];
    assert_true(n_used >= 2); // the samples reach more than one output layer
    const float eps = 1e-2f;
    int checked = 0, skipped = 0;
    for (int k = 0; k < 8; k++) {
        Sample *s = &samples[k];
        float *grad = calloc(net.n_params, sizeof(float));
        nn_backward(&net, s, grad);
        for (size_t i = 0; i < net.n_params; i++) {
            float saved = net.p[i];
            net.p[i] = saved + eps;
            float up = loss_of(&net, s);
            net.p[i] = saved - eps;
            float down = loss_of(&net, s);
            net.p[i] = saved;
            float fd = (up - down) / (2 * eps);
            if (grad[i] == 0.0f && fd == 0.0f)
                continue;
            // A kink between saved - eps and saved + eps makes the difference meaningless.
            float g_up, g_down;
            {
                float *g2 = calloc(net.n_params, sizeof(float));
                net.p[i] = saved + eps;
                nn_backward(&net, s, g2);
                g_up = g2[i];
                memset(g2, 0, net.n_params * sizeof(float));
                net.p[i] = saved - eps;
                nn_backward(&net, s, g2);
                g_down = g2[i];
                net.p[i] = saved;
                free(g2);
            }
            if ((g_up == 0.0f) != (g_down == 0.0f) || fabsf(g_up - g_down) > 0.5f * fabsf(grad[i]) + 1e-6f) {
                skipped++;
                continue;
            }
            float tol = 0.02f * fabsf(fd) + 1e-5f;
            if (fabsf(grad[i] - fd) > tol)
                fail_msg("sample %d parameter %zu: gradient %g, finite difference %g", k, i, grad[i], fd);
            checked++;
        }
        free(grad);
    }
    print_message("%d gradient entries checked, %d next to a kink skipped; %d output buckets used\n", checked, skipped,
                  n_used);
    assert_true(checked > 500 && skipped < checked / 5);
    nn_free(&net);
}

static void test_gradient(void **state)
{
    (void)state;
    check_gradient(NULL, false);
    NnueInputs kb;
    assert_true(nn_king_layout(2, &kb));
    check_gradient(&kb, true); // factorised king buckets
}

// Exports a float network to path and loads the file back as the engine reads it.
static void export_and_load(const Net *net, const char *path, Nnue *q)
{
    char err[256];
    assert_true(nn_export(net, path));
    assert_true(nnue_load(q, path, err, sizeof err));
}

// One epoch of AdamW on the sample (batches of 64) lowers its mean loss; then the
// exported network, loaded back, evaluates every sample within a small tolerance of the
// float network (the quantisation's rounding: weights in 1/255 and 1/64 steps).
static void train_and_export(int buckets, const NnueInputs *in, bool factor)
{
    static Sample samples[3000];
    int n = load_samples(samples, 3000, in);
    assert_true(n > 1000);
    Net net;
    Adam adam;
    assert_true(nn_alloc(&net, in, 32, buckets, 1));
    assert_true(!factor || nn_add_factor(&net));
    assert_true(adam_alloc(&adam, net.n_params));
    adam.lr = 0.002f;
    double before = 0;
    for (int i = 0; i < n; i++)
        before += loss_of(&net, &samples[i]);
    float *grad = malloc(net.n_params * sizeof(float));
    for (int b = 0; b < n; b += 64) {
        memset(grad, 0, net.n_params * sizeof(float));
        int end = b + 64 < n ? b + 64 : n;
        for (int i = b; i < end; i++)
            nn_backward(&net, &samples[i], grad);
        for (size_t i = 0; i < net.n_params; i++)
            grad[i] /= (float)(end - b);
        adam_step(&adam, &net, grad);
    }
    double after = 0;
    for (int i = 0; i < n; i++)
        after += loss_of(&net, &samples[i]);
    print_message("mean loss %.5f before, %.5f after one epoch\n", before / n, after / n);
    assert_true(after < before * 0.95);

    const char *path = "build/test_train.nnue";
    Nnue q = {0};
    export_and_load(&net, path, &q);
    double sum = 0, worst = 0;
    for (int i = 0; i < n; i++) {
        double want = nn_forward(&net, &samples[i]) * NNUE_SCALE, got = qnn_eval(&q, &samples[i]);
        double d = fabs(want - got);
        sum += d;
        worst = d > worst ? d : worst;
    }
    print_message("quantised vs float over %d positions: mean %.2f cp, worst %.2f cp\n", n, sum / n, worst);
    assert_true(sum / n < 3.0 && worst < 20.0); // the tolerance docs/NNUE.md states

    // The float form recovered from the file evaluates as the file does (up to the integer
    // rounding of the engine's arithmetic) and exports to the same bytes.
    Net rec;
    assert_true(nn_from_export(&rec, &q));
    assert_int_equal(rec.hidden, 32);
    assert_int_equal(rec.buckets, buckets);
    worst = 0;
    for (int i = 0; i < n; i++) {
        double d = fabs(nn_forward(&rec, &samples[i]) * NNUE_SCALE - qnn_eval(&q, &samples[i]));
        worst = d > worst ? d : worst;
    }
    print_message("recovered float vs quantised: worst %.2f cp\n", worst);
    assert_true(worst < 2.0);
    const char *again = "build/test_train_again.nnue";
    assert_true(nn_export(&rec, again));
    FILE *a = fopen(path, "rb"), *b = fopen(again, "rb");
    assert_non_null(a);
    assert_non_null(b);
    int ca, cb;
    long at = 0;
    do {
        ca = fgetc(a);
        cb = fgetc(b);
        if (ca != cb)
            fail_msg("re-export differs at byte %ld", at);
        at++;
    } while (ca != EOF);
    assert_true(at > 32L * 768 * 2);
    fclose(a);
    fclose(b);
    remove(again);
    nn_free(&rec);
    nnue_free(&q);

    // A truncated or altered file is refused with a reason.
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 100, SEEK_SET);
    fputc(0x55, f);
    fclose(f);
    char err[256];
    assert_false(nnue_load(&q, path, err, sizeof err));
    assert_non_null(strstr(err, "checksum"));
    assert_false(nnue_load(&q, "tests/data/nnue_sample.bin", err, sizeof err));
    assert_non_null(strstr(err, "is not an Outpost"));
    remove(path);

    // A checkpoint restores the network and the optimiser exactly.
    const char *ck = "build/test_train.ckpt";
    assert_true(nn_save_checkpoint(&net, &adam, 3, ck));
    Net back;
    Adam back_adam;
    int epoch = 0;
    assert_true(nn_load_checkpoint(&back, &back_adam, &epoch, ck));
    assert_int_equal(epoch, 3);
    assert_int_equal(back.hidden, 32);
    assert_int_equal(back.buckets, buckets);
    assert_memory_equal(&back.in, &net.in, sizeof net.in); // the king buckets and layout too
    assert_int_equal(back.factor, factor);
    assert_int_equal(back.n_params, net.n_params);
    assert_memory_equal(back.p, net.p, net.n_params * sizeof(float));
    assert_memory_equal(back_adam.v, adam.v, net.n_params * sizeof(float));
    assert_int_equal(back_adam.step, adam.step);
    remove(ck);
    nn_free(&back);
    adam_free(&back_adam);
    free(grad);
    adam_free(&adam);
    nn_free(&net);
}

static void test_train_and_export(void **state)
{
    (void)state;
    train_and_export(1, NULL, false);
    train_and_export(NNUE_MAX_BUCKETS, NULL, false);
    NnueInputs kb;
    assert_true(nn_king_layout(4, &kb));
    train_and_export(NNUE_MAX_BUCKETS, &kb, false); // king buckets: version 3 files
    // Factorised: the export adds the shared rows, so the file evaluates as the float
    // network does and its float form (unfactorised) re-exports to the same bytes.
    train_and_export(NNUE_MAX_BUCKETS, &kb, true);
}

// A network of one bucket widened to several evaluates every sample exactly as before,
// in float and exported; a network of several buckets is not widened again.
static void test_widen(void **state)
{
    (void)state;
    static Sample samples[500];
    int n = load_samples(samples, 500, NULL);
    Net one, wide;
    assert_true(nn_alloc(&one, NULL, 16, 1, 5));
    assert_true(nn_alloc(&wide, NULL, 16, 1, 5));
    *one.out_b = *wide.out_b = 0.2f;
    assert_true(nn_widen(&wide, NNUE_MAX_BUCKETS));
    assert_int_equal(wide.buckets, NNUE_MAX_BUCKETS);
    Nnue q1 = {0}, q8 = {0};
    export_and_load(&one, "build/test_widen_1.nnue", &q1);
    export_and_load(&wide, "build/test_widen_8.nnue", &q8);
    assert_int_equal(q8.buckets, NNUE_MAX_BUCKETS);
    for (int i = 0; i < n; i++) {
        assert_true(nn_forward(&one, &samples[i]) == nn_forward(&wide, &samples[i]));
        assert_int_equal(qnn_eval(&q1, &samples[i]), qnn_eval(&q8, &samples[i]));
    }
    assert_false(nn_widen(&wide, 4));
    assert_true(nn_widen(&wide, NNUE_MAX_BUCKETS));
    nnue_free(&q1);
    nnue_free(&q8);
    nn_free(&one);
    nn_free(&wide);
    remove("build/test_widen_1.nnue");
    remove("build/test_widen_8.nnue");
}

// The sample of the plain inputs that a king-bucketed network sees: each perspective's
// squares file-reversed when its own king stands on files a-d (its king's feature, own
// king = type 5 of the own colour, says where).
static Sample as_mirrored(const Sample *s)
{
    Sample m = *s;
    for (int side = 0; side < 2; side++) {
        uint16_t *f = side ? m.them : m.us;
        int king_file = 0;
        for (int k = 0; k < m.n; k++)
            if (f[k] / 64 == 5)
                king_file = f[k] % 8;
        for (int k = 0; king_file < 4 && k < m.n; k++)
            f[k] = (uint16_t)(f[k] ^ 7);
    }
    return m;
}

// A plain network grown wider and into king buckets (shared rows or not) computes, in
// float and exported, exactly what it did on the board its inputs see; the shapes it
// cannot grow from or into are refused.
static void test_grow(void **state)
{
    (void)state;
    static Sample plain[500], kb[500];
    NnueInputs in;
    assert_true(nn_king_layout(4, &in));
    int n = load_samples(plain, 500, NULL);
    assert_int_equal(load_samples(kb, 500, &in), n);
    int mirrored = 0;
    for (int factor = 0; factor < 2; factor++) {
        Net small, grown;
        assert_true(nn_alloc(&small, NULL, 16, 1, 7) && nn_alloc(&grown, NULL, 16, 1, 7));
        *small.out_b = *grown.out_b = -0.1f;
        assert_true(nn_widen(&small, NNUE_MAX_BUCKETS) && nn_widen(&grown, NNUE_MAX_BUCKETS));
        assert_true(nn_grow(&grown, &in, 24, factor, 3));
        assert_int_equal(grown.hidden, 24);
        assert_int_equal(grown.in.kbuckets, 4);
        assert_int_equal(grown.factor, factor);
        Nnue qs = {0}, qg = {0};
        export_and_load(&small, "build/test_grow_s.nnue", &qs);
        export_and_load(&grown, "build/test_grow_g.nnue", &qg);
        for (int i = 0; i < n; i++) {
            Sample seen = as_mirrored(&plain[i]);
            mirrored += memcmp(seen.us, plain[i].us, sizeof seen.us) || memcmp(seen.them, plain[i].them, sizeof seen.them);
            assert_true(nn_forward(&small, &seen) == nn_forward(&grown, &kb[i]));
            assert_int_equal(qnn_eval(&qs, &seen), qnn_eval(&qg, &kb[i]));
        }
        assert_false(nn_grow(&grown, NULL, 32, false, 1)); // king buckets already
        assert_false(nn_grow(&small, NULL, 8, false, 1));  // fewer neurons
        assert_false(nn_grow(&small, NULL, 32, true, 1));  // shared rows need king buckets
        assert_true(nn_grow(&small, NULL, 32, false, 1));  // wider, plain
        assert_int_equal(small.hidden, 32);
        nnue_free(&qs);
        nnue_free(&qg);
        nn_free(&small);
        nn_free(&grown);
    }
    assert_true(mirrored > 10 && mirrored < 2 * n - 10); // both kinds of board were seen
    remove("build/test_grow_s.nnue");
    remove("build/test_grow_g.nnue");
}

// The sample with every piece on the reflected square (files a <-> h), both views.
static Sample reflected(const Sample *s)
{
    Sample m = *s;
    for (int k = 0; k < m.n; k++) {
        m.us[k] = (uint16_t)(m.us[k] ^ 7);
        m.them[k] = (uint16_t)(m.them[k] ^ 7);
    }
    return m;
}

// Growth by reflection: the grown network (2H neurons, mirrored king buckets) computes the
// mean of the old one on a position and on its reflection, as a float network and, through
// an export on a grid twice as fine as the old one's, as integers. Shapes it cannot grow
// are refused.
static void test_grow_reflected(void **state)
{
    (void)state;
    static Sample plain[500], kb[500];
    NnueInputs in;
    assert_true(nn_king_layout(2, &in));
    int n = load_samples(plain, 500, NULL);
    assert_int_equal(load_samples(kb, 500, &in), n);
    for (int factor = 0; factor < 2; factor++) {
        Net small, grown;
        assert_true(nn_alloc(&small, NULL, 16, 1, 7));
        *small.out_b = -0.1f;
        assert_true(nn_widen(&small, NNUE_MAX_BUCKETS));
        small.out_w[3] = 1.5f; // the export's coarsest grid, 1/64: the halves need 1/128
        // From an export's weights, so that the output layer lies on the grid.
        Nnue qs = {0};
        export_and_load(&small, "build/test_grow_r.nnue", &qs);
        assert_int_equal(qs.qb, NNUE_QB);
        nn_free(&small);
        assert_true(nn_from_export(&small, &qs));
        assert_true(nn_from_export(&grown, &qs));
        assert_true(nn_grow_reflected(&grown, &in, factor));
        assert_int_equal(grown.hidden, 32);
        assert_int_equal(grown.in.kbuckets, 2);
        assert_int_equal(grown.factor, factor);
        assert_int_equal(nn_export_qb(&grown), 2 * NNUE_QB);
        Nnue qg = {0};
        export_and_load(&grown, "build/test_grow_r.nnue", &qg);
        int differ = 0;
        for (int i = 0; i < n; i++) {
            Sample r = reflected(&plain[i]);
            float a = nn_forward(&small, &plain[i]), b = nn_forward(&small, &r), g = nn_forward(&grown, &kb[i]);
            differ += fabsf(a - b) > 1e-3f;
            assert_true(fabsf(g - 0.5f * (a + b)) < 1e-4f);
            // The integers: the mean of the old export's two evaluations, up to their roundings.
            int mean2 = qnn_eval(&qs, &plain[i]) + qnn_eval(&qs, &r);
            assert_true(abs(2 * qnn_eval(&qg, &kb[i]) - mean2) <= 3);
        }
        assert_true(differ > n / 2); // the old network does tell positions from reflections
        for (size_t i = 0; i < (size_t)grown.buckets * 64; i++) // the halves came back exactly
            assert_true((float)qg.out_w[i] / (float)qg.qb == grown.out_w[i]);
        assert_false(nn_grow_reflected(&grown, &in, false)); // king buckets already
        assert_false(nn_grow_reflected(&small, NULL, false)); // no king buckets asked
        nnue_free(&qs);
        nnue_free(&qg);
        nn_free(&small);
        nn_free(&grown);
    }
    remove("build/test_grow_r.nnue");
}

// Up to 300 of the sample's records as samples of the 2-bucket king layout, whose inputs
// are put in *in; returns how many.
static int load_kb_samples(Sample *out, NnueInputs *in)
{
    assert_true(nn_king_layout(2, in));
    return load_samples(out, 300, in);
}

// An export factorised again has its rows split into their mean over the buckets (shared)
// and the rest, computing what it did; AdamW then decays the buckets' own rows by -R's
// extra rate and the shared rows by the plain one.
static void test_share_mean_and_own_decay(void **state)
{
    (void)state;
    static Sample kb[300];
    NnueInputs in;
    int n = load_kb_samples(kb, &in);
    Net net;
    assert_true(nn_alloc(&net, &in, 16, 1, 5) && nn_add_factor(&net)); // shared rows 0: an export's form
    size_t h = 16, own = (size_t)nnue_input_count(&in) * h;
    float before[300];
    for (int i = 0; i < n; i++)
        before[i] = nn_forward(&net, &kb[i]);
    nn_share_mean(&net);
    double shared_norm = 0;
    for (size_t f = 0; f < 768; f++)
        for (size_t j = 0; j < h; j++) {
            float sum = net.ft_w[f * h + j] + net.ft_w[(768 + f) * h + j]; // the two buckets' own rows
            assert_true(fabsf(sum) < 1e-6f);
            shared_norm += fabs(net.ft_w[own + f * h + j]);
        }
    assert_true(shared_norm > 1.0); // the means moved: the rows were random
    for (int i = 0; i < n; i++)
        assert_true(fabsf(nn_forward(&net, &kb[i]) - before[i]) < 1e-4f * (1.0f + fabsf(before[i])));

    Adam adam;
    assert_true(adam_alloc(&adam, net.n_params));
    adam.lr = 0.01f;
    adam.own_decay = 4.0f;
    float *grad = calloc(net.n_params, sizeof(float)); // no gradient: decay alone moves them
    assert_non_null(grad);
    float w_own = net.ft_w[3 * h + 1] = 0.5f, w_shared = net.ft_w[own + 3 * h + 1] = 0.5f;
    adam_step(&adam, &net, grad);
    assert_float_equal(net.ft_w[3 * h + 1], w_own * (1.0f - 0.01f * (0.01f + 4.0f)), 1e-6f);
    assert_float_equal(net.ft_w[own + 3 * h + 1], w_shared * (1.0f - 0.01f * 0.01f), 1e-6f);
    free(grad);
    adam_free(&adam);
    nn_free(&net);
}

// Scaling the output (tools/netscale) multiplies every evaluation by the factor, keeps
// the output weights within +-NN_CLIP (counting those it clips) and survives the export.
static void test_scale_output(void **state)
{
    (void)state;
    static Sample kb[300];
    NnueInputs in;
    int n = load_kb_samples(kb, &in);
    assert_true(n > 100);
    Net net;
    assert_true(nn_alloc(&net, &in, 16, NNUE_MAX_BUCKETS, 9));
    for (int b = 0; b < NNUE_MAX_BUCKETS; b++)
        net.out_b[b] = 0.05f * (float)(b + 1); // the biases scale too
    float before[300];
    for (int i = 0; i < n; i++)
        before[i] = nn_forward(&net, &kb[i]);
    assert_int_equal(nn_scale_output(&net, 0.8f), 0);
    for (int i = 0; i < n; i++)
        assert_true(fabsf(nn_forward(&net, &kb[i]) - 0.8f * before[i]) < 1e-5f * (1.0f + fabsf(before[i])));

    // Exported and read back, the integers give the scaled evaluation, not the old one.
    Nnue q = {0};
    export_and_load(&net, "build/test_scale.nnue", &q);
    double err_new = 0, err_old = 0;
    for (int i = 0; i < n; i++) {
        err_new += fabs(qnn_eval(&q, &kb[i]) - 0.8 * before[i] * NNUE_SCALE);
        err_old += fabs(qnn_eval(&q, &kb[i]) - before[i] * NNUE_SCALE);
    }
    print_message("exported: mean %.2f cp from the scaled float network, %.2f from the old\n", err_new / n,
                  err_old / n);
    assert_true(err_new / n < 3.0 && err_new < err_old / 4); // docs/NNUE.md's tolerance
    nnue_free(&q);

    float top = 0;
    for (size_t i = 0; i < (size_t)NNUE_MAX_BUCKETS * 32; i++)
        top = fmaxf(top, fabsf(net.out_w[i]));
    size_t clipped = nn_scale_output(&net, 2.5f * NN_CLIP / top); // the largest weights go past the clip
    assert_true(clipped > 0);
    for (size_t i = 0; i < (size_t)NNUE_MAX_BUCKETS * 32; i++)
        assert_true(fabsf(net.out_w[i]) <= NN_CLIP);
    nn_free(&net);
}

// What walk_counter saw of a walk over records.
typedef struct {
    PackedPos seen[3000];
    size_t index[3000];
    int n, stop_at;
} Walk;

static bool walk_counter(const PackedPos *rec, size_t i, void *ctx)
{
    Walk *w = ctx;
    if (w->n == w->stop_at)
        return false;
    w->seen[w->n] = *rec;
    w->index[w->n++] = i;
    return true;
}

// The export's output grid: the finest power of two from 64 to 1024 on which the largest
// output weight rounds within +-127; the file says which, and the float network read back
// from it is on that grid.
static void test_export_grid(void **state)
{
    (void)state;
    Net net;
    assert_true(nn_alloc(&net, NULL, 16, 2, 13));
    size_t n_out = 2 * 2 * 16;
    const float top[] = {0.0f, 0.05f, 0.3f, 0.62f, 0.993f, 1.0f, 1.98f};
    const int want[] = {NNUE_QB_MAX, NNUE_QB_MAX, 256, 128, 128, 64, 64};
    for (int t = 0; t < 7; t++) {
        for (size_t i = 0; i < n_out; i++)
            net.out_w[i] = top[t] * (float)(i % 7) / 6.0f * (i & 1 ? -1.0f : 1.0f);
        assert_int_equal(nn_export_qb(&net), want[t]);
        Nnue q = {0};
        export_and_load(&net, "build/test_grid.nnue", &q);
        assert_int_equal(q.qb, want[t]);
        for (size_t i = 0; i < n_out; i++) {
            assert_true(q.out_w[i] >= -127 && q.out_w[i] <= 127);
            assert_true(fabsf((float)q.out_w[i] / (float)q.qb - net.out_w[i]) <= 0.5f / (float)q.qb + 1e-7f);
        }
        nnue_free(&q);
    }
    remove("build/test_grid.nnue");
    nn_free(&net);
}

// Snapping the output weights (train -Q) puts each on the export's 1/64 grid, so the
// export reads them back exactly, and a step with fixed_output leaves them where they are
// while the feature layer and the output biases still learn.
static void test_snap_output(void **state)
{
    (void)state;
    static Sample kb[300];
    NnueInputs in;
    int n = load_kb_samples(kb, &in);
    Net net;
    assert_true(nn_alloc(&net, &in, 16, NNUE_MAX_BUCKETS, 11));
    size_t n_out = (size_t)NNUE_MAX_BUCKETS * 2 * 16;
    assert_true(nn_snap_output(&net) > n_out / 2); // random weights lie off the grid
    for (size_t i = 0; i < n_out; i++) {
        float k = net.out_w[i] * (float)nn_export_qb(&net);
        assert_true(k == roundf(k));
    }
    assert_int_equal(nn_snap_output(&net), 0);

    Nnue q = {0};
    Net back;
    export_and_load(&net, "build/test_snap.nnue", &q);
    assert_true(nn_from_export(&back, &q));
    assert_memory_equal(back.out_w, net.out_w, n_out * sizeof(float));
    nn_free(&back);
    nnue_free(&q);

    Adam adam;
    assert_true(adam_alloc(&adam, net.n_params));
    adam.lr = 0.01f;
    adam.fixed_output = true;
    float *grad = calloc(net.n_params, sizeof(float)), *out_before = malloc(n_out * sizeof(float));
    float *ft_before = malloc(net.n_params * sizeof(float));
    assert_true(grad && out_before && ft_before);
    for (int i = 0; i < n; i++)
        nn_backward(&net, &kb[i], grad);
    memcpy(out_before, net.out_w, n_out * sizeof(float));
    memcpy(ft_before, net.p, net.n_params * sizeof(float));
    float bias_before[NNUE_MAX_BUCKETS];
    memcpy(bias_before, net.out_b, sizeof bias_before);
    adam_step(&adam, &net, grad);
    assert_memory_equal(net.out_w, out_before, n_out * sizeof(float));
    assert_memory_not_equal(net.p, ft_before, (size_t)(net.out_w - net.p) * sizeof(float));
    assert_memory_not_equal(net.out_b, bias_before, sizeof bias_before);
    adam.fixed_output = false; // the same step without it moves them: the test can tell
    adam_step(&adam, &net, grad);
    assert_memory_not_equal(net.out_w, out_before, n_out * sizeof(float));
    free(grad);
    free(out_before);
    free(ft_before);
    adam_free(&adam);
    nn_free(&net);
}

// records_for_each: a folder's files in order, each record once, its index counted from
// its own file's start (across the reader's 1,024-record chunks); a callback's false
// stops the walk; a missing file or a folder without data-0.bin fails.
static void test_for_each_record(void **state)
{
    (void)state;
    static PackedPos all[3000];
    FILE *f = open_data("nnue_sample.bin");
    assert_int_equal(fread(all, sizeof all[0], 3000, f), 3000);
    fclose(f);
    char dir[] = "/tmp/outpost-walk-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    const int split = 1700; // data-0.bin holds 1,700 records, data-1.bin 1,300
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/data-%d.bin", dir, k);
        f = fopen(path, "wb");
        assert_non_null(f);
        size_t n = k == 0 ? (size_t)split : (size_t)(3000 - split);
        assert_int_equal(fwrite(all + (k ? split : 0), sizeof all[0], n, f), n);
        fclose(f);
    }
    static Walk w;
    w = (Walk){.stop_at = -1};
    assert_true(records_for_each(dir, "test", walk_counter, &w));
    assert_int_equal(w.n, 3000);
    assert_memory_equal(w.seen, all, sizeof all);
    for (int k = 0; k < 3000; k++)
        assert_int_equal(w.index[k], k < split ? (size_t)k : (size_t)(k - split));
    w = (Walk){.stop_at = 1500};
    assert_false(records_for_each(dir, "test", walk_counter, &w));
    assert_int_equal(w.n, 1500);
    snprintf(path, sizeof path, "%s/data-1.bin", dir); // one file alone
    w = (Walk){.stop_at = -1};
    assert_true(records_for_each(path, "test", walk_counter, &w));
    assert_int_equal(w.n, 3000 - split);
    assert_memory_equal(w.seen, all + split, sizeof all[0] * (3000 - split));
    remove(path);
    snprintf(path, sizeof path, "%s/data-0.bin", dir);
    remove(path);
    assert_false(records_for_each(path, "test", walk_counter, &w)); // missing file
    assert_false(records_for_each(dir, "test", walk_counter, &w));  // no data-0.bin
    rmdir(dir);
}

// The features: own pieces first, black's view mirrored; a position and its colour
// mirror give the same sample; a position decoded left-right mirrored gives the sample of
// its file-reversed twin.
static void test_features(void **state)
{
    (void)state;
    assert_int_equal(nnue_feature(WHITE, W_PAWN, 8), 8);
    assert_int_equal(nnue_feature(BLACK, B_PAWN, 48), 8);
    assert_int_equal(nnue_feature(WHITE, B_KING, 60), (6 + KING) * 64 + 60);
    assert_int_equal(nnue_feature(BLACK, W_KING, 4), (6 + KING) * 64 + 60);
    static Position pos;
    char err[128];
    PackedPos a, b;
    assert_true(pos_set_fen(&pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false, err,
                            sizeof err));
    packpos_pack(&pos, 35, MOVE_NONE, 2, &a);
    assert_true(pos_set_fen(&pos, "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1", false, err,
                            sizeof err));
    packpos_pack(&pos, 35, MOVE_NONE, 0, &b);
    Sample sa, sb;
    nn_decode(&a, 0.5f, false, NULL, &sa);
    nn_decode(&b, 0.5f, false, NULL, &sb);
    assert_int_equal(sa.n, sb.n);
    int count_a[NNUE_INPUTS] = {0}, count_b[NNUE_INPUTS] = {0};
    for (int i = 0; i < sa.n; i++) {
        count_a[sa.us[i]]++;
        count_b[sb.us[i]]++;
    }
    assert_memory_equal(count_a, count_b, sizeof count_a);
    assert_true(fabsf(sa.target - sb.target) < 1e-6f);

    // Left-right: the Kiwipete middle game without castling rights, and its files reversed.
    PackedPos c, d;
    assert_true(pos_set_fen(&pos, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - - 0 1", false, err,
                            sizeof err));
    packpos_pack(&pos, -20, MOVE_NONE, 1, &c);
    assert_true(pos_set_fen(&pos, "r2k3r/1bpqpp1p/1pnp2nb/3NP3/3P2p1/p1Q2N2/PPPBBPPP/R2K3R b - - 0 1", false, err,
                            sizeof err));
    packpos_pack(&pos, -20, MOVE_NONE, 1, &d);
    Sample sc, sd, plain;
    nn_decode(&c, 0.5f, true, NULL, &sc);
    nn_decode(&d, 0.5f, false, NULL, &sd);
    nn_decode(&c, 0.5f, false, NULL, &plain);
    assert_int_equal(sc.n, sd.n);
    int count_c[2][NNUE_INPUTS] = {{0}}, count_d[2][NNUE_INPUTS] = {{0}}, count_plain[NNUE_INPUTS] = {0};
    for (int i = 0; i < sc.n; i++) {
        count_c[0][sc.us[i]]++, count_c[1][sc.them[i]]++;
        count_d[0][sd.us[i]]++, count_d[1][sd.them[i]]++;
        count_plain[plain.us[i]]++;
    }
    assert_memory_equal(count_c, count_d, sizeof count_c);
    assert_memory_not_equal(count_c[0], count_plain, sizeof count_plain); // the position is not symmetric
    assert_true(fabsf(sc.target - sd.target) < 1e-6f);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_gradient),
        cmocka_unit_test(test_train_and_export),
        cmocka_unit_test(test_widen),
        cmocka_unit_test(test_grow),
        cmocka_unit_test(test_grow_reflected),
        cmocka_unit_test(test_share_mean_and_own_decay),
        cmocka_unit_test(test_scale_output),
        cmocka_unit_test(test_export_grid),
        cmocka_unit_test(test_snap_output),
        cmocka_unit_test(test_for_each_record),
    };
    return cmocka_run_group_tests_name("train", tests, NULL, NULL);
}
