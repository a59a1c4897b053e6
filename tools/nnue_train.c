// SPDX-License-Identifier: MIT
// The network trainer's core: forward and backward passes, AdamW, checkpoints, export.
#include "nnue_train.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "rng.h"

static void set_views(Net *net)
{
    int h = net->hidden;
    net->ft_w = net->p;
    net->ft_b = net->ft_w + (size_t)NN_INPUTS * (size_t)h;
    net->out_w = net->ft_b + h;
    net->out_b = net->out_w + 2 * h;
}

static size_t params_of(int hidden) { return (size_t)NN_INPUTS * (size_t)hidden + (size_t)hidden * 3 + 1; }

bool nn_alloc(Net *net, int hidden, uint64_t seed)
{
    net->hidden = hidden;
    net->n_params = params_of(hidden);
    net->p = calloc(net->n_params, sizeof(float));
    if (!net->p)
        return false;
    set_views(net);
    // Uniform in +-1/sqrt(fan-in): 32 active inputs for the feature layer, 2H for the output.
    float ft = 1.0f / sqrtf(32.0f), out = 1.0f / sqrtf(2.0f * (float)hidden);
    for (size_t i = 0; i < (size_t)NN_INPUTS * (size_t)hidden; i++)
        net->ft_w[i] = ft * (2.0f * (float)(rng_next(&seed) >> 40) / (float)(1 << 24) - 1.0f);
    for (int i = 0; i < 2 * hidden; i++)
        net->out_w[i] = out * (2.0f * (float)(rng_next(&seed) >> 40) / (float)(1 << 24) - 1.0f);
    return true;
}

void nn_free(Net *net)
{
    free(net->p);
    net->p = NULL;
}

static float sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }

bool nn_sample(const PackedPos *rec, float wdl, Sample *out)
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
    out->n = 0;
    for (Bitboard occ = pos_occupied(&pos); occ;) {
        Square sq = pop_lsb(&occ);
        int piece = pos.board[sq];
        out->us[out->n] = (uint16_t)nn_feature(stm, piece, sq);
        out->them[out->n++] = (uint16_t)nn_feature(!stm, piece, sq);
    }
    float result = u.result == 1 ? 0.5f : (u.result == 2) == (stm == WHITE) ? 1.0f : 0.0f;
    out->target = wdl * result + (1.0f - wdl) * sigmoidf((float)u.score / NN_SCALE);
    return true;
}

void nn_decode(const PackedPos *rec, float wdl, bool mirror, Sample *out)
{
    int flip = mirror ? 7 : 0; // a1 <-> h1: the square's file reversed
    const uint8_t *b = rec->bytes;
    Bitboard occ = 0;
    for (int i = 0; i < 8; i++)
        occ |= (Bitboard)b[i] << (8 * i);
    int stm = b[24] >> 7;
    out->n = 0;
    for (Bitboard o = occ; o;) {
        Square sq = pop_lsb(&o);
        int piece = (b[8 + out->n / 2] >> (4 * (out->n & 1))) & 15;
        out->us[out->n] = (uint16_t)nn_feature(stm, piece, sq ^ flip);
        out->them[out->n++] = (uint16_t)nn_feature(!stm, piece, sq ^ flip);
    }
    int result = b[27];
    float r = result == 1 ? 0.5f : (result == 2) == (stm == WHITE) ? 1.0f : 0.0f;
    int16_t score = (int16_t)(b[28] | b[29] << 8);
    out->target = wdl * r + (1.0f - wdl) * sigmoidf((float)score / NN_SCALE);
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
}

static float screlu(float x)
{
    x = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    return x * x;
}

enum { MAX_HIDDEN = 4096 };

// The output, with the accumulators (before activation) left in acc_us and acc_them.
static float forward(const Net *net, const Sample *s, float *acc_us, float *acc_them)
{
    accumulate(net, s, acc_us, acc_them);
    int h = net->hidden;
    float out = *net->out_b;
    for (int j = 0; j < h; j++)
        out += net->out_w[j] * screlu(acc_us[j]) + net->out_w[h + j] * screlu(acc_them[j]);
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
    int h = net->hidden;
    float pred = sigmoidf(out), diff = pred - s->target;
    float d_out = 2.0f * diff * pred * (1.0f - pred);
    float *g_ft_w = grad, *g_ft_b = grad + (size_t)NN_INPUTS * (size_t)h, *g_out_w = g_ft_b + h;
    float *g_out_b = g_out_w + 2 * h;
    *g_out_b += d_out;
    for (int j = 0; j < h; j++) {
        g_out_w[j] += d_out * screlu(acc_us[j]);
        g_out_w[h + j] += d_out * screlu(acc_them[j]);
        // d screlu(x) / dx = 2x inside (0, 1), else 0; reuse the accumulators for it.
        acc_us[j] = acc_us[j] > 0.0f && acc_us[j] < 1.0f ? d_out * net->out_w[j] * 2.0f * acc_us[j] : 0.0f;
        acc_them[j] = acc_them[j] > 0.0f && acc_them[j] < 1.0f ? d_out * net->out_w[h + j] * 2.0f * acc_them[j] : 0.0f;
        g_ft_b[j] += acc_us[j] + acc_them[j];
    }
    for (int k = 0; k < s->n; k++) {
        float *gu = g_ft_w + (size_t)s->us[k] * (size_t)h, *gt = g_ft_w + (size_t)s->them[k] * (size_t)h;
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
    a->step = 0;
    return a->m && a->v;
}

void adam_free(Adam *a)
{
    free(a->m);
    free(a->v);
    a->m = a->v = NULL;
}

void adam_step(Adam *a, Net *net, const float *grad)
{
    a->step++;
    float c1 = 1.0f - powf(a->beta1, (float)a->step), c2 = 1.0f - powf(a->beta2, (float)a->step);
    size_t n_w = (size_t)NN_INPUTS * (size_t)net->hidden, out_w = (size_t)(net->out_w - net->p);
    for (size_t i = 0; i < net->n_params; i++) {
        float g = grad[i];
        a->m[i] = a->beta1 * a->m[i] + (1.0f - a->beta1) * g;
        a->v[i] = a->beta2 * a->v[i] + (1.0f - a->beta2) * g * g;
        float w = net->p[i];
        bool weight = i < n_w || (i >= out_w && i < out_w + 2 * (size_t)net->hidden);
        w -= a->lr * ((a->m[i] / c1) / (sqrtf(a->v[i] / c2) + a->eps) + (weight ? a->decay * w : 0.0f));
        if (weight)
            w = w < -NN_CLIP ? -NN_CLIP : w > NN_CLIP ? NN_CLIP : w;
        net->p[i] = w;
    }
}

/* ---------------------------------------------------------------- files */

enum { CKPT_MAGIC = 0x4B43504Fu, NET_MAGIC = 0x4E4E504Fu, NET_VERSION = 1, ACT_SCRELU = 1 };

static uint32_t fnv1a(const uint8_t *p, size_t n, uint32_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

bool nn_save_checkpoint(const Net *net, const Adam *adam, int epoch, const char *path)
{
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return false;
    uint32_t head[4] = {CKPT_MAGIC, (uint32_t)net->hidden, (uint32_t)epoch, 0};
    int64_t step = adam ? adam->step : 0;
    bool ok = fwrite(head, sizeof head, 1, f) == 1 && fwrite(&step, sizeof step, 1, f) == 1
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
    bool ok = fread(head, sizeof head, 1, f) == 1 && fread(&step, sizeof step, 1, f) == 1 && head[0] == CKPT_MAGIC
           && head[1] >= 1 && head[1] <= MAX_HIDDEN && nn_alloc(net, (int)head[1], 0);
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

bool nn_export(const Net *net, const char *path)
{
    int h = net->hidden;
    size_t n16 = (size_t)NN_INPUTS * (size_t)h + (size_t)h + 2 * (size_t)h;
    int16_t *w16 = malloc(n16 * sizeof *w16);
    if (!w16)
        return false;
    for (size_t i = 0; i < (size_t)NN_INPUTS * (size_t)h + (size_t)h; i++) // ft_w then ft_b
        w16[i] = quant16(net->p[i], NN_QA);
    for (int j = 0; j < 2 * h; j++)
        w16[(size_t)NN_INPUTS * (size_t)h + (size_t)h + (size_t)j] = quant16(net->out_w[j], NN_QB);
    int32_t out_b = (int32_t)lroundf(*net->out_b * NN_QA * NN_QB);
    uint32_t sum = fnv1a((const uint8_t *)w16, n16 * sizeof *w16, 2166136261u);
    sum = fnv1a((const uint8_t *)&out_b, sizeof out_b, sum);
    uint32_t head[9] = {NET_MAGIC, NET_VERSION, NN_INPUTS, (uint32_t)h, ACT_SCRELU, NN_QA, NN_QB, NN_SCALE, sum};
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(head, sizeof head, 1, f) == 1 && fwrite(w16, sizeof *w16, n16, f) == n16
           && fwrite(&out_b, sizeof out_b, 1, f) == 1;
    ok = f && fclose(f) == 0 && ok;
    free(w16);
    return ok;
}

bool nn_from_export(Net *net, const Nnue *q)
{
    if (!nn_alloc(net, q->hidden, 0))
        return false;
    size_t h = (size_t)q->hidden;
    for (size_t i = 0; i < NN_INPUTS * h; i++)
        net->ft_w[i] = (float)q->ft_w[i] / NN_QA;
    for (size_t j = 0; j < h; j++)
        net->ft_b[j] = (float)q->ft_b[j] / NN_QA;
    for (size_t j = 0; j < 2 * h; j++)
        net->out_w[j] = (float)q->out_w[j] / NN_QB;
    *net->out_b = (float)q->out_b / (NN_QA * NN_QB);
    return true;
}

int qnn_eval(const Nnue *q, const Sample *s)
{
    int h = q->hidden;
    int64_t sum = 0;
    for (int side = 0; side < 2; side++) {
        const uint16_t *feats = side ? s->them : s->us;
        for (int j = 0; j < h; j++) {
            int32_t acc = q->ft_b[j];
            for (int k = 0; k < s->n; k++)
                acc += q->ft_w[(size_t)feats[k] * (size_t)h + (size_t)j];
            int32_t c = acc < 0 ? 0 : acc > NN_QA ? NN_QA : acc;
            sum += (int64_t)c * c * q->out_w[side * h + j];
        }
    }
    // sum is in QA * QA * QB units: one QA goes, the bias (QA * QB) is added, then scaled.
    int64_t out = sum / NN_QA + q->out_b;
    return (int)(out * NN_SCALE / (NN_QA * NN_QB));
}
