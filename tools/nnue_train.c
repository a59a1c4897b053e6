// SPDX-License-Identifier: MIT
// The network trainer's core: forward and backward passes, AdamW, checkpoints, export.
#include "nnue_train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "rng.h"

// The feature rows of the network being trained: the file's, then the shared ones.
static size_t inputs_of(const Net *net) { return (size_t)nnue_input_count(&net->in) + (net->factor ? 768 : 0); }

static void set_views(Net *net)
{
    int h = net->hidden;
    net->ft_w = net->p;
    net->ft_b = net->ft_w + inputs_of(net) * (size_t)h;
    net->out_w = net->ft_b + h;
    net->out_b = net->out_w + 2 * (size_t)h * (size_t)net->buckets;
}

static size_t params_of(size_t inputs, int hidden, int buckets)
{
    return inputs * (size_t)hidden + (size_t)hidden + (2 * (size_t)hidden + 1) * (size_t)buckets;
}

// A weight drawn uniformly from +-scale.
static float random_weight(uint64_t *seed, float scale)
{
    return scale * (2.0f * (float)(rng_next(seed) >> 40) / (float)(1 << 24) - 1.0f);
}

bool nn_alloc(Net *net, const NnueInputs *in, int hidden, int buckets, uint64_t seed)
{
    net->hidden = hidden;
    net->buckets = buckets;
    net->in = in ? *in : (NnueInputs){0};
    net->factor = false;
    net->n_params = params_of(inputs_of(net), hidden, buckets);
    net->p = calloc(net->n_params, sizeof(float));
    if (!net->p)
        return false;
    set_views(net);
    // Uniform in +-1/sqrt(fan-in): 32 active inputs for the feature layer, 2H for the output.
    float ft = 1.0f / sqrtf(32.0f), out = 1.0f / sqrtf(2.0f * (float)hidden);
    for (size_t i = 0; i < inputs_of(net) * (size_t)hidden; i++)
        net->ft_w[i] = random_weight(&seed, ft);
    for (int i = 0; i < 2 * hidden * buckets; i++)
        net->out_w[i] = random_weight(&seed, out);
    return true;
}

void nn_free(Net *net)
{
    free(net->p);
    net->p = NULL;
}

static float sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }

bool nn_sample(const PackedPos *rec, float wdl, const NnueInputs *in, Sample *out)
{
    UnpackedPos u;
    if (!packpos_unpack(rec, &u))
        return false;
    if (move_is_noisy(u.move) || u.score >= SCORE_MATE_IN_MAX || u.score <= SCORE_MATED_IN_MAX)
        return false;
    static _Thread_local Position pos;
    char err[128];
    if (!pos_set_fen(&pos, u.fen, false, err, sizeof err) || pos_in_check(&pos))
        return false;
    int stm = pos.side;
    static const NnueInputs plain = {0};
    in = in ? in : &plain;
    Square king_us = pos_king(&pos, stm), king_them = pos_king(&pos, !stm);
    out->n = 0;
    for (Bitboard occ = pos_occupied(&pos); occ;) {
        Square sq = pop_lsb(&occ);
        int piece = pos.board[sq];
        out->us[out->n] = (uint16_t)nnue_feature_in(in, stm, piece, sq, king_us);
        out->them[out->n++] = (uint16_t)nnue_feature_in(in, !stm, piece, sq, king_them);
    }
    float result = u.result == 1 ? 0.5f : (u.result == 2) == (stm == WHITE) ? 1.0f : 0.0f;
    out->target = wdl * result + (1.0f - wdl) * sigmoidf((float)u.score / NNUE_SCALE);
    return true;
}

void nn_decode(const PackedPos *rec, float wdl, bool mirror, const NnueInputs *in, Sample *out)
{
    int flip = mirror ? 7 : 0; // a1 <-> h1: the square's file reversed
    const uint8_t *b = rec->bytes;
    Bitboard occ = 0;
    for (int i = 0; i < 8; i++)
        occ |= (Bitboard)b[i] << (8 * i);
    static const NnueInputs plain = {0};
    in = in ? in : &plain;
    int stm = b[24] >> 7, n = 0, pieces[NN_MAX_FEATURES];
    Square squares[NN_MAX_FEATURES], kings[COLOR_NB] = {0, 0};
    for (Bitboard o = occ; o && n < NN_MAX_FEATURES; n++) {
        squares[n] = pop_lsb(&o) ^ flip;
        pieces[n] = (b[8 + n / 2] >> (4 * (n & 1))) & 15;
        if (pieces[n] % 6 == KING)
            kings[pieces[n] / 6] = squares[n];
    }
    for (out->n = 0; out->n < n; out->n++) {
        int piece = pieces[out->n];
        Square sq = squares[out->n];
        out->us[out->n] = (uint16_t)nnue_feature_in(in, stm, piece, sq, kings[stm]);
        out->them[out->n] = (uint16_t)nnue_feature_in(in, !stm, piece, sq, kings[!stm]);
    }
    int result = b[27];
    float r = result == 1 ? 0.5f : (result == 2) == (stm == WHITE) ? 1.0f : 0.0f;
    int16_t score = (int16_t)(b[28] | b[29] << 8);
    out->target = wdl * r + (1.0f - wdl) * sigmoidf((float)score / NNUE_SCALE);
}

// The shared row of a king-bucketed feature (its square and piece, any bucket).
static size_t factor_row(const Net *net, int feature)
{
    return (size_t)nnue_input_count(&net->in) + (size_t)(feature % 768);
}

// The two accumulators (before activation) of a sample.
static void accumulate(const Net *net, const Sample *s, float *acc_us, float *acc_them)
{
    int h = net->hidden;
    memcpy(acc_us, net->ft_b, (size_t)h * sizeof(float));
    memcpy(acc_them, net->ft_b, (size_t)h * sizeof(float));
    for (int k = 0; k < s->n; k++) {
        const float *wu = net->ft_w + (size_t)s->us[k] * (size_t)h;
        const float *wt = net->ft_w + (size_t)s->them[k] * (size_t)h;
        for (int j = 0; j < h; j++) {
            acc_us[j] += wu[j];
            acc_them[j] += wt[j];
        }
    }
    for (int k = 0; net->factor && k < s->n; k++) {
        const float *wu = net->ft_w + factor_row(net, s->us[k]) * (size_t)h;
        const float *wt = net->ft_w + factor_row(net, s->them[k]) * (size_t)h;
        for (int j = 0; j < h; j++) {
            acc_us[j] += wu[j];
            acc_them[j] += wt[j];
        }
    }
}

static float screlu(float x)
{
    x = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    return x * x;
}

enum { MAX_HIDDEN = 4096 };

// The sample's output bucket.
static int bucket_of(const Net *net, const Sample *s) { return nnue_bucket(net->buckets, s->n); }

// The output, with the accumulators (before activation) left in acc_us and acc_them.
static float forward(const Net *net, const Sample *s, float *acc_us, float *acc_them)
{
    accumulate(net, s, acc_us, acc_them);
    int h = net->hidden, b = bucket_of(net, s);
    const float *w = net->out_w + (size_t)b * 2 * (size_t)h;
    float out = net->out_b[b];
    for (int j = 0; j < h; j++)
        out += w[j] * screlu(acc_us[j]) + w[h + j] * screlu(acc_them[j]);
    return out;
}

float nn_forward(const Net *net, const Sample *s)
{
    float acc_us[MAX_HIDDEN], acc_them[MAX_HIDDEN];
    return forward(net, s, acc_us, acc_them);
}

float nn_backward(const Net *net, const Sample *s, float *grad)
{
    float acc_us[MAX_HIDDEN], acc_them[MAX_HIDDEN];
    float out = forward(net, s, acc_us, acc_them);
    int h = net->hidden, b = bucket_of(net, s);
    float pred = sigmoidf(out), diff = pred - s->target;
    float d_out = 2.0f * diff * pred * (1.0f - pred);
    size_t out_at = (size_t)b * 2 * (size_t)h;
    const float *w = net->out_w + out_at;
    float *g_ft_w = grad, *g_ft_b = grad + inputs_of(net) * (size_t)h, *g_out_w = g_ft_b + h + out_at;
    grad[net->out_b + b - net->p] += d_out;
    for (int j = 0; j < h; j++) {
        g_out_w[j] += d_out * screlu(acc_us[j]);
        g_out_w[h + j] += d_out * screlu(acc_them[j]);
        // d screlu(x) / dx = 2x inside (0, 1), else 0; reuse the accumulators for it.
        acc_us[j] = acc_us[j] > 0.0f && acc_us[j] < 1.0f ? d_out * w[j] * 2.0f * acc_us[j] : 0.0f;
        acc_them[j] = acc_them[j] > 0.0f && acc_them[j] < 1.0f ? d_out * w[h + j] * 2.0f * acc_them[j] : 0.0f;
        g_ft_b[j] += acc_us[j] + acc_them[j];
    }
    for (int k = 0; k < s->n; k++) {
        float *gu = g_ft_w + (size_t)s->us[k] * (size_t)h, *gt = g_ft_w + (size_t)s->them[k] * (size_t)h;
        for (int j = 0; j < h; j++) {
            gu[j] += acc_us[j];
            gt[j] += acc_them[j];
        }
    }
    for (int k = 0; net->factor && k < s->n; k++) {
        float *gu = g_ft_w + factor_row(net, s->us[k]) * (size_t)h;
        float *gt = g_ft_w + factor_row(net, s->them[k]) * (size_t)h;
        for (int j = 0; j < h; j++) {
            gu[j] += acc_us[j];
            gt[j] += acc_them[j];
        }
    }
    return diff * diff;
}

bool adam_alloc(Adam *a, size_t n)
{
    a->m = calloc(n, sizeof(float));
    a->v = calloc(n, sizeof(float));
    a->lr = 0.001f;
    a->beta1 = 0.9f;
    a->beta2 = 0.999f;
    a->eps = 1e-8f;
    a->decay = 0.01f;
    a->own_decay = 0.0f;
    a->fixed_output = false;
    a->step = 0;
    return a->m && a->v;
}

void adam_free(Adam *a)
{
    free(a->m);
    free(a->v);
    a->m = a->v = NULL;
}

// A weight kept within +-NN_CLIP, the range the exported int16 weights can hold.
static inline float clip_weight(float w) { return w < -NN_CLIP ? -NN_CLIP : w > NN_CLIP ? NN_CLIP : w; }

void adam_step(Adam *a, Net *net, const float *grad)
{
    a->step++;
    float c1 = 1.0f - powf(a->beta1, (float)a->step), c2 = 1.0f - powf(a->beta2, (float)a->step);
    size_t n_w = inputs_of(net) * (size_t)net->hidden, out_w = (size_t)(net->out_w - net->p);
    size_t n_own = net->factor ? (size_t)nnue_input_count(&net->in) * (size_t)net->hidden : 0;
    size_t n_out = 2 * (size_t)net->hidden * (size_t)net->buckets;
    for (size_t i = 0; i < net->n_params; i++) {
        if (a->fixed_output && i >= out_w && i < out_w + n_out)
            continue;
        float g = grad[i];
        a->m[i] = a->beta1 * a->m[i] + (1.0f - a->beta1) * g;
        a->v[i] = a->beta2 * a->v[i] + (1.0f - a->beta2) * g * g;
        float w = net->p[i];
        bool weight = i < n_w || (i >= out_w && i < out_w + n_out);
        float decay = !weight ? 0.0f : i < n_own ? a->decay + a->own_decay : a->decay;
        w -= a->lr * ((a->m[i] / c1) / (sqrtf(a->v[i] / c2) + a->eps) + decay * w);
        if (weight)
            w = clip_weight(w);
        net->p[i] = w;
    }
}

/* ---------------------------------------------------------------- files */

// Checkpoints: CKPT_MAGIC for the plain inputs; CKPT_MAGIC_KB adds the king buckets and
// their layout (9 words) after the step, the count's top bit (CKPT_FACTOR) set when the
// network is factorised.
enum { CKPT_MAGIC = 0x4B43504Fu, CKPT_MAGIC_KB = 0x4B43504Bu };
#define CKPT_FACTOR 0x80000000u

bool nn_save_checkpoint(const Net *net, const Adam *adam, int epoch, const char *path)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return false;
    uint32_t head[4] = {net->in.kbuckets ? CKPT_MAGIC_KB : CKPT_MAGIC, (uint32_t)net->hidden, (uint32_t)epoch,
                        (uint32_t)net->buckets};
    int64_t step = adam ? adam->step : 0;
    uint32_t kb = (uint32_t)net->in.kbuckets | (net->factor ? CKPT_FACTOR : 0);
    bool ok = fwrite(head, sizeof head, 1, f) == 1 && fwrite(&step, sizeof step, 1, f) == 1
           && (!kb || (fwrite(&kb, sizeof kb, 1, f) == 1 && fwrite(net->in.layout, 1, 32, f) == 32))
           && fwrite(net->p, sizeof(float), net->n_params, f) == net->n_params;
    for (int k = 0; ok && adam && k < 2; k++)
        ok = fwrite(k ? adam->v : adam->m, sizeof(float), net->n_params, f) == net->n_params;
    ok = fclose(f) == 0 && ok;
    return ok && rename(tmp, path) == 0; // a crash while saving leaves the old checkpoint
}

bool nn_load_checkpoint(Net *net, Adam *adam, int *epoch, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    uint32_t head[4];
    int64_t step;
    // head[3], the bucket count, is 0 in the checkpoints of before buckets: one bucket.
    bool ok = fread(head, sizeof head, 1, f) == 1 && fread(&step, sizeof step, 1, f) == 1
           && (head[0] == CKPT_MAGIC || head[0] == CKPT_MAGIC_KB) && head[1] >= 1 && head[1] <= MAX_HIDDEN
           && head[3] <= NNUE_MAX_BUCKETS;
    NnueInputs in = {0};
    bool factor = false;
    if (ok && head[0] == CKPT_MAGIC_KB) {
        uint32_t kb = 0;
        ok = fread(&kb, sizeof kb, 1, f) == 1;
        factor = kb & CKPT_FACTOR;
        kb &= ~CKPT_FACTOR;
        ok = ok && kb >= 1 && kb <= NNUE_MAX_KING_BUCKETS && fread(in.layout, 1, 32, f) == 32;
        in.kbuckets = (int)kb;
        for (int i = 0; ok && i < 32; i++)
            ok = in.layout[i] < kb;
    }
    ok = ok && nn_alloc(net, &in, (int)head[1], head[3] ? (int)head[3] : 1, 0) && (!factor || nn_add_factor(net));
    ok = ok && fread(net->p, sizeof(float), net->n_params, f) == net->n_params;
    if (ok && adam) {
        ok = adam_alloc(adam, net->n_params) && fread(adam->m, sizeof(float), net->n_params, f) == net->n_params
          && fread(adam->v, sizeof(float), net->n_params, f) == net->n_params;
        adam->step = step;
    }
    fclose(f);
    if (ok)
        *epoch = (int)head[2];
    return ok;
}

static int16_t quant16(float x, float q)
{
    float v = roundf(x * q);
    return (int16_t)(v < -32767.0f ? -32767.0f : v > 32767.0f ? 32767.0f : v);
}

int nn_export_qb(const Net *net)
{
    float top = 0.0f;
    for (size_t i = 0; i < (size_t)net->buckets * 2 * (size_t)net->hidden; i++)
        top = fmaxf(top, fabsf(clip_weight(net->out_w[i])));
    int qb = NNUE_QB;
    while (qb < NNUE_QB_MAX && roundf(top * (float)(2 * qb)) <= 127.0f)
        qb *= 2;
    return qb;
}

bool nn_export(const Net *net, const char *path)
{
    int h = net->hidden, nb = net->buckets;
    if (nb < 1 || nb > NNUE_MAX_BUCKETS) // more than the engine reads
        return false;
    size_t rows = (size_t)nnue_input_count(&net->in), n_ft = rows * (size_t)h + (size_t)h;
    size_t n16 = n_ft + 2 * (size_t)h * (size_t)nb;
    int16_t *w16 = malloc(n16 * sizeof *w16);
    if (!w16)
        return false;
    for (size_t r = 0; r < rows; r++) { // ft_w, each row with its shared row when factorised
        const float *shared = net->factor ? net->ft_w + factor_row(net, (int)r) * (size_t)h : NULL;
        for (size_t j = 0; j < (size_t)h; j++) {
            float w = net->ft_w[r * (size_t)h + j];
            if (shared)
                w = clip_weight(w + shared[j]);
            w16[r * (size_t)h + j] = quant16(w, NNUE_QA);
        }
    }
    for (size_t j = 0; j < (size_t)h; j++)
        w16[rows * (size_t)h + j] = quant16(net->ft_b[j], NNUE_QA);
    int qb = nn_export_qb(net);
    for (size_t j = 0; j < n16 - n_ft; j++)
        w16[n_ft + j] = quant16(net->out_w[j], (float)qb);
    int32_t out_b[NNUE_MAX_BUCKETS];
    for (int b = 0; b < nb; b++)
        out_b[b] = (int32_t)lroundf(net->out_b[b] * NNUE_QA * (float)qb);
    uint32_t sum = nnue_fnv1a((const uint8_t *)w16, n16 * sizeof *w16, NNUE_FNV_BASIS);
    sum = nnue_fnv1a((const uint8_t *)out_b, (size_t)nb * sizeof *out_b, sum);
    uint32_t head[NNUE_HEADER_MAX_WORDS];
    size_t words = nnue_header_write(head, &net->in, (uint32_t)h, (uint32_t)nb, (uint32_t)qb, sum);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(head, sizeof *head, words, f) == words
           && fwrite(w16, sizeof *w16, n16, f) == n16 && fwrite(out_b, sizeof *out_b, (size_t)nb, f) == (size_t)nb;
    ok = f && fclose(f) == 0 && ok;
    free(w16);
    return ok;
}

bool nn_from_export(Net *net, const Nnue *q)
{
    if (!nn_alloc(net, &q->inputs, q->hidden, q->buckets, 0))
        return false;
    size_t h = (size_t)q->hidden;
    for (size_t i = 0; i < inputs_of(net) * h; i++)
        net->ft_w[i] = (float)q->ft_w[i] / NNUE_QA;
    for (size_t j = 0; j < h; j++)
        net->ft_b[j] = (float)q->ft_b[j] / NNUE_QA;
    for (size_t j = 0; j < 2 * h * (size_t)q->buckets; j++)
        net->out_w[j] = (float)q->out_w[j] / (float)q->qb;
    for (int b = 0; b < q->buckets; b++)
        net->out_b[b] = (float)q->out_b[b] / ((float)NNUE_QA * (float)q->qb);
    return true;
}

bool nn_widen(Net *net, int buckets)
{
    if (net->buckets == buckets)
        return true;
    Net wide;
    if (net->factor || net->buckets != 1 || buckets < 1 || buckets > NNUE_MAX_BUCKETS
        || !nn_alloc(&wide, &net->in, net->hidden, buckets, 0))
        return false;
    size_t h = (size_t)net->hidden;
    memcpy(wide.p, net->p, (inputs_of(net) * h + h) * sizeof(float)); // ft_w, ft_b
    for (int b = 0; b < buckets; b++) {
        memcpy(wide.out_w + (size_t)b * 2 * h, net->out_w, 2 * h * sizeof(float));
        wide.out_b[b] = *net->out_b;
    }
    nn_free(net);
    *net = wide;
    return true;
}

int qnn_eval(const Nnue *q, const Sample *s)
{
    int h = q->hidden, b = nnue_bucket(q->buckets, s->n);
    const int16_t *out_w = q->out_w + (size_t)b * 2 * (size_t)h;
    int64_t sum = 0;
    for (int side = 0; side < 2; side++) {
        const uint16_t *feats = side ? s->them : s->us;
        for (int j = 0; j < h; j++) {
            int32_t acc = q->ft_b[j];
            for (int k = 0; k < s->n; k++)
                acc += q->ft_w[(size_t)feats[k] * (size_t)h + (size_t)j];
            int32_t c = acc < 0 ? 0 : acc > NNUE_QA ? NNUE_QA : acc;
            sum += (int64_t)c * c * out_w[side * h + j];
        }
    }
    // sum is in QA * QA * QB units: one QA goes, the bias (QA * QB) is added, then scaled.
    int64_t out = sum / NNUE_QA + q->out_b[b];
    return (int)(out * NNUE_SCALE / (NNUE_QA * q->qb));
}

bool nn_king_layout(int kbuckets, NnueInputs *out)
{
    // Rank-major from the own first rank, files e to h (the king after mirroring).
    static const uint8_t LAYOUT_2[32] = {0, 0, 0, 0}; // the back rank, the rest (1, below)
    static const uint8_t LAYOUT_4[32] = {1, 1, 0, 0, 2, 2, 2, 2}; // the rest: 3, below
    static const uint8_t LAYOUT_8[32] = {0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6}; // ranks 5-8: 7
    *out = (NnueInputs){.kbuckets = kbuckets};
    for (int i = 0; i < 32; i++) {
        switch (kbuckets) {
        case 1: out->layout[i] = 0; break;
        case 2: out->layout[i] = i < 4 ? LAYOUT_2[i] : 1; break;
        case 4: out->layout[i] = i < 8 ? LAYOUT_4[i] : 3; break;
        case 8: out->layout[i] = i < 16 ? LAYOUT_8[i] : 7; break;
        default: return false;
        }
    }
    return true;
}

bool nn_add_factor(Net *net)
{
    if (!net->in.kbuckets || net->factor)
        return false;
    size_t h = (size_t)net->hidden, rows = inputs_of(net) * h, n = net->n_params + 768 * h;
    float *p = calloc(n, sizeof(float));
    if (!p)
        return false;
    memcpy(p, net->p, rows * sizeof(float));                                            // the buckets' rows
    memcpy(p + rows + 768 * h, net->p + rows, (net->n_params - rows) * sizeof(float)); // biases, output
    free(net->p);
    net->p = p;
    net->n_params = n;
    net->factor = true;
    set_views(net);
    return true;
}

bool nn_grow_reflected(Net *net, const NnueInputs *in, bool factor)
{
    if (net->in.kbuckets || net->factor || !in || !in->kbuckets || 2 * net->hidden > MAX_HIDDEN)
        return false;
    Net g;
    size_t h = (size_t)net->hidden, h2 = 2 * h, buckets = (size_t)in->kbuckets;
    if (!nn_alloc(&g, in, (int)h2, net->buckets, 1))
        return false;
    if (factor && !nn_add_factor(&g)) {
        nn_free(&g);
        return false;
    }
    for (size_t f = 0; f < 768; f++) {
        // Every bucket's row, or the shared one with the buckets' own at 0. A feature's
        // square is its low 6 bits, so f ^ 7 is the same piece on the reflected square.
        for (size_t b = 0; b < (factor ? buckets + 1 : buckets); b++) {
            float *row = g.ft_w + (b < buckets ? b * 768 + f : factor_row(&g, (int)f)) * h2;
            bool carry = !factor || b == buckets;
            for (size_t j = 0; j < h; j++) {
                row[j] = carry ? net->ft_w[f * h + j] : 0.0f;
                row[h + j] = carry ? net->ft_w[(f ^ 7) * h + j] : 0.0f;
            }
        }
    }
    memcpy(g.ft_b, net->ft_b, h * sizeof(float));
    memcpy(g.ft_b + h, net->ft_b, h * sizeof(float));
    for (int b = 0; b < net->buckets; b++)
        for (size_t side = 0; side < 2; side++)
            for (size_t j = 0; j < h; j++) {
                // Exact halves: on a grid twice as fine as the old weight's, which the
                // export takes (nn_export_qb) unless the old one was already the finest.
                float half = 0.5f * net->out_w[(size_t)b * 2 * h + side * h + j];
                g.out_w[(size_t)b * 2 * h2 + side * h2 + j] = half;
                g.out_w[(size_t)b * 2 * h2 + side * h2 + h + j] = half;
            }
    memcpy(g.out_b, net->out_b, (size_t)net->buckets * sizeof(float));
    nn_free(net);
    *net = g;
    return true;
}

size_t nn_scale_output(Net *net, float f)
{
    size_t clipped = 0, n = (size_t)net->buckets * 2 * (size_t)net->hidden;
    for (size_t i = 0; i < n; i++) {
        float w = net->out_w[i] * f;
        if (w > NN_CLIP || w < -NN_CLIP) {
            w = w > 0 ? NN_CLIP : -NN_CLIP;
            clipped++;
        }
        net->out_w[i] = w;
    }
    for (int b = 0; b < net->buckets; b++)
        net->out_b[b] *= f;
    return clipped;
}

size_t nn_snap_output(Net *net)
{
    size_t changed = 0, n = (size_t)net->buckets * 2 * (size_t)net->hidden;
    float qb = (float)nn_export_qb(net); // rounding keeps the largest weight, so the grid holds
    for (size_t i = 0; i < n; i++) {
        float w = (float)quant16(clip_weight(net->out_w[i]), qb) / qb;
        changed += w != net->out_w[i];
        net->out_w[i] = w;
    }
    return changed;
}

void nn_share_mean(Net *net)
{
    if (!net->factor)
        return;
    size_t h = (size_t)net->hidden, buckets = (size_t)net->in.kbuckets;
    for (size_t f = 0; f < 768; f++) {
        float *shared = net->ft_w + factor_row(net, (int)f) * h;
        for (size_t j = 0; j < h; j++) {
            float mean = 0.0f;
            for (size_t b = 0; b < buckets; b++)
                mean += net->ft_w[(b * 768 + f) * h + j];
            mean /= (float)buckets;
            for (size_t b = 0; b < buckets; b++)
                net->ft_w[(b * 768 + f) * h + j] -= mean;
            shared[j] += mean;
        }
    }
}

bool nn_grow(Net *net, const NnueInputs *in, int hidden, bool factor, uint64_t seed)
{
    bool kb = in && in->kbuckets;
    if (net->in.kbuckets || net->factor || hidden < net->hidden || hidden > MAX_HIDDEN || (factor && !kb))
        return false;
    Net g;
    if (!nn_alloc(&g, kb ? in : NULL, hidden, net->buckets, seed))
        return false;
    if (factor && !nn_add_factor(&g)) {
        nn_free(&g);
        return false;
    }
    size_t h0 = (size_t)net->hidden, h = (size_t)hidden, buckets = kb ? (size_t)in->kbuckets : 1;
    float ft = 1.0f / sqrtf(32.0f); // nn_alloc's scale for the new neurons
    for (size_t f = 0; f < 768; f++) {
        const float *old = net->ft_w + f * h0;
        // The rows that now carry the old network: each bucket's, or the shared one.
        for (size_t b = 0; b < buckets; b++) {
            float *row = g.ft_w + (b * 768 + f) * h;
            if (factor)
                memset(row, 0, h * sizeof(float));
            else
                memcpy(row, old, h0 * sizeof(float));
        }
        if (factor) {
            float *row = g.ft_w + factor_row(&g, (int)f) * h;
            memcpy(row, old, h0 * sizeof(float));
            for (size_t j = h0; j < h; j++) // the new neurons' share, as a new network's
                row[j] = random_weight(&seed, ft);
        }
    }
    memcpy(g.ft_b, net->ft_b, h0 * sizeof(float)); // the new neurons' biases stay 0
    for (int b = 0; b < net->buckets; b++) {
        float *out = g.out_w + (size_t)b * 2 * h;
        const float *old = net->out_w + (size_t)b * 2 * h0;
        memset(out, 0, 2 * h * sizeof(float)); // the new neurons start silent
        memcpy(out, old, h0 * sizeof(float));
        memcpy(out + h, old + h0, h0 * sizeof(float));
        g.out_b[b] = net->out_b[b];
    }
    nn_free(net);
    *net = g;
    return true;
}
