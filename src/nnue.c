// SPDX-License-Identifier: MIT
// Network loading, accumulators and evaluation. Portable C, whose int16 loops the
// compiler vectorises (SSE, AVX2, AVX-512 or NEON, as the build targets); the output layer
// has AVX2 and AVX-512 forms too (same integers, same result).
#include "nnue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

// EMBEDDED_NET, EMBEDDED_NET_SIZE and EMBEDDED_HIDDEN, the built-in network's width (0
// without one), from tools/embed_net.c.
#include "embedded_net.inc"

// The inner loops below are written once for a width h and inlined twice: with h the
// constant EMBEDDED_HIDDEN, for the built-in network (known trip counts, no tails), and
// with h read from the network, for one loaded through EvalFile of another width.
#if defined(__GNUC__)
#define KERNEL static inline __attribute__((always_inline))
#else
#define KERNEL static inline
#endif

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool nnue_load_memory(Nnue *net, const uint8_t *data, size_t size, const char *name, char *err, size_t err_size)
{
    NnueHeader head;
    if (!nnue_header_read(data, size, &head)) {
        snprintf(err, err_size, "'%s' is not an Outpost (768 -> H) x 2 -> 1 SCReLU network", name);
        return false;
    }
    if (head.hidden > NNUE_MAX_HIDDEN || head.buckets > NNUE_MAX_BUCKETS) {
        snprintf(err, err_size, "'%s' has %u hidden neurons and %u output buckets; at most %d and %d are supported",
                 name, head.hidden, head.buckets, NNUE_MAX_HIDDEN, NNUE_MAX_BUCKETS);
        return false;
    }
    uint32_t checksum = head.checksum;
    size_t words = head.words;
    int h = (int)head.hidden, nb = (int)head.buckets;
    size_t inputs = (size_t)nnue_input_count(&head.inputs);
    size_t n16 = inputs * (size_t)h + (size_t)h + 2 * (size_t)h * (size_t)nb;
    size_t bytes = nnue_payload_bytes(inputs, (size_t)h, (size_t)nb); // the int16 weights, then the int32 biases
    const uint8_t *raw = data + words * 4;
    if (size - words * 4 != bytes || nnue_fnv1a(raw, bytes, NNUE_FNV_BASIS) != checksum) {
        snprintf(err, err_size, "'%s' is truncated or corrupt (size or checksum)", name);
        return false;
    }
    int16_t *w16 = platform_calloc_aligned(n16 * sizeof *w16, 64);
    if (!w16) {
        snprintf(err, err_size, "no memory for network '%s'", name);
        return false;
    }
    for (size_t i = 0; i < n16; i++)
        w16[i] = (int16_t)(uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
    nnue_free(net);
    net->hidden = h;
    net->buckets = nb;
    net->checksum = checksum;
    net->memory = w16;
    net->ft_w = w16;
    net->inputs = head.inputs;
    net->qb = (int)head.qb;
    net->ft_b = w16 + inputs * (size_t)h;
    net->out_w = net->ft_b + h;
    for (int b = 0; b < nb; b++)
        net->out_b[b] = (int32_t)le32(raw + n16 * 2 + 4 * (size_t)b);
    net->small_out = true;
    for (int j = 0; j < 2 * h * nb; j++)
        net->small_out &= net->out_w[j] >= -127 && net->out_w[j] <= 127;
    return true;
}

bool nnue_load(Nnue *net, const char *path, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open network '%s'", path);
        return false;
    }
    // The largest network supported, its header and one byte more (to see a longer file).
    size_t cap = NNUE_HEADER_MAX_WORDS * 4
               + nnue_payload_bytes((size_t)NNUE_MAX_KING_BUCKETS * NNUE_INPUTS, NNUE_MAX_HIDDEN, NNUE_MAX_BUCKETS) + 1;
    uint8_t *data = malloc(cap);
    if (!data) {
        fclose(f);
        snprintf(err, err_size, "no memory for network '%s'", path);
        return false;
    }
    size_t size = fread(data, 1, cap, f);
    fclose(f);
    bool ok = nnue_load_memory(net, data, size, path, err, err_size);
    free(data);
    return ok;
}

bool nnue_has_embedded(void) { return EMBEDDED_NET_SIZE > 0; }

bool nnue_load_embedded(Nnue *net, char *err, size_t err_size)
{
    if (!nnue_has_embedded()) {
        snprintf(err, err_size, "no network is built in (make EVALFILE=/path/to/net)");
        return false;
    }
    return nnue_load_memory(net, EMBEDDED_NET, EMBEDDED_NET_SIZE, "<embedded>", err, err_size);
}

void nnue_free(Nnue *net)
{
    platform_free_aligned(net->memory);
    memset(net, 0, sizeof *net);
}

// The weights of a piece's feature seen by `view`, whose own king stands on king_sq.
static const int16_t *feature_row(const Nnue *net, int view, int piece, Square sq, Square king_sq)
{
    return net->ft_w + (size_t)nnue_feature_in(&net->inputs, view, piece, sq, king_sq) * (size_t)net->hidden;
}

// One perspective's accumulator of pos from scratch.
static void refresh_view(const Nnue *net, const Position *pos, Accumulator *acc, int view)
{
    int16_t *v = acc->v[view];
    memcpy(v, net->ft_b, (size_t)net->hidden * sizeof(int16_t));
    Square king = pos_king(pos, view);
    for (Bitboard occ = pos_occupied(pos); occ;) {
        Square sq = pop_lsb(&occ);
        const int16_t *row = feature_row(net, view, pos->board[sq], sq, king);
        for (int j = 0; j < net->hidden; j++)
            v[j] = (int16_t)(v[j] + row[j]);
    }
}

void nnue_cache_reset(NnueCache *cache)
{
    memset(cache->valid, 0, sizeof cache->valid);
    cache->net = NULL;
}

// One perspective's accumulator of pos through the cache entry of its king's region and
// mirror side: the features depend on those alone, so the entry's sums are right for pos
// once the pieces that differ are taken off and put on.
static void refresh_view_cached(const Nnue *net, const Position *pos, Accumulator *acc, int view, NnueCache *cache)
{
    if (cache->net != net) {
        nnue_cache_reset(cache);
        cache->net = net;
    }
    Square king = pos_king(pos, view);
    int ks = view == WHITE ? king : king ^ 56, mirror = (ks & 7) < 4;
    ks ^= mirror ? 7 : 0;
    int bucket = net->inputs.layout[(ks >> 3) * 4 + (ks & 7) - 4], h = net->hidden;
    int16_t *v = cache->v[view][bucket][mirror];
    Bitboard *held = cache->pieces[view][bucket][mirror];
    if (!cache->valid[view][bucket][mirror]) {
        memcpy(v, net->ft_b, (size_t)h * sizeof(int16_t));
        memset(held, 0, PIECE_NB * sizeof *held);
        cache->valid[view][bucket][mirror] = true;
    }
    for (int piece = 0; piece < PIECE_NB; piece++) {
        Bitboard now = pos_pieces(pos, piece_color(piece), piece_type(piece));
        for (Bitboard off = held[piece] & ~now; off;) {
            const int16_t *row = feature_row(net, view, piece, pop_lsb(&off), king);
            for (int j = 0; j < h; j++)
                v[j] = (int16_t)(v[j] - row[j]);
        }
        for (Bitboard on = now & ~held[piece]; on;) {
            const int16_t *row = feature_row(net, view, piece, pop_lsb(&on), king);
            for (int j = 0; j < h; j++)
                v[j] = (int16_t)(v[j] + row[j]);
        }
        held[piece] = now;
    }
    memcpy(acc->v[view], v, (size_t)h * sizeof(int16_t));
}

void nnue_refresh(const Nnue *net, const Position *pos, Accumulator *acc)
{
    for (int view = WHITE; view <= BLACK; view++)
        refresh_view(net, pos, acc, view);
}

void nnue_delta(const Position *pos, Move m, NnueDelta *d)
{
    int us = pos->side;
    Square from = move_from(m), to = move_to(m);
    int piece = pos->board[from];
    *d = (NnueDelta){0}; // every field set: nnue_apply reads the second pair only when counted
    if (move_is_castle(m)) {
        Square kto, rto;
        pos_castle_squares(us, from, to, &kto, &rto);
        *d = (NnueDelta){2, 2, {piece, pos->board[to]}, {piece, pos->board[to]}, {from, to}, {kto, rto}};
        return;
    }
    d->sub_piece[d->n_sub] = piece;
    d->sub_sq[d->n_sub++] = from;
    if (move_is_capture(m)) {
        Square capsq = move_capture_square(m, us);
        d->sub_piece[d->n_sub] = pos->board[capsq];
        d->sub_sq[d->n_sub++] = capsq;
    }
    d->add_piece[d->n_add] = move_is_promo(m) ? make_piece(us, move_promo_type(m)) : piece;
    d->add_sq[d->n_add++] = to;
}

void nnue_copy(const Nnue *net, const Accumulator *parent, Accumulator *child)
{
    size_t bytes = (size_t)net->hidden * sizeof(int16_t);
#if EMBEDDED_HIDDEN > 0
    if (net->hidden == EMBEDDED_HIDDEN)
        bytes = EMBEDDED_HIDDEN * sizeof(int16_t);
#endif
    for (int c = WHITE; c <= BLACK; c++)
        memcpy(child->v[c], parent->v[c], bytes);
}

// One perspective's update: c = p - s0 [- s1] + a0 [+ a1], by the numbers of rows taken
// off and put on (a quiet move 1 and 1, a capture 2 and 1, castling 2 and 2). The sums
// wrap as the int16 stores would, so the result equals one feature at a time.
KERNEL void update_view(const Nnue *net, const int16_t *restrict p, int16_t *restrict c, const NnueDelta *d,
                        int view, Square king, int h)
{
    const int16_t *restrict s0 = feature_row(net, view, d->sub_piece[0], d->sub_sq[0], king);
    const int16_t *restrict a0 = feature_row(net, view, d->add_piece[0], d->add_sq[0], king);
    if (d->n_sub == 1) {
        for (int j = 0; j < h; j++)
            c[j] = (int16_t)(p[j] - s0[j] + a0[j]);
        return;
    }
    const int16_t *restrict s1 = feature_row(net, view, d->sub_piece[1], d->sub_sq[1], king);
    if (d->n_add == 1) {
        for (int j = 0; j < h; j++)
            c[j] = (int16_t)(p[j] - s0[j] - s1[j] + a0[j]);
        return;
    }
    const int16_t *restrict a1 = feature_row(net, view, d->add_piece[1], d->add_sq[1], king);
    for (int j = 0; j < h; j++)
        c[j] = (int16_t)(p[j] - s0[j] - s1[j] + a0[j] + a1[j]);
}

// Each perspective of child is its parent's updated by d (update_view); a king move that
// changes what its own side's perspective sees (king buckets) rebuilds that perspective
// from `after` instead. child and parent are distinct.
void nnue_apply(const Nnue *net, const Accumulator *parent, Accumulator *child, const NnueDelta *d,
                const Position *after, NnueCache *cache)
{
    int h = net->hidden;
    for (int view = WHITE; view <= BLACK; view++) {
        if (d->sub_piece[0] == make_piece(view, KING)
            && nnue_king_changes_view(&net->inputs, view, d->sub_sq[0], d->add_sq[0])) {
            if (cache)
                refresh_view_cached(net, after, child, view, cache);
            else
                refresh_view(net, after, child, view);
            continue;
        }
        Square king = net->inputs.kbuckets ? pos_king(after, view) : 0; // read only with king buckets
#if EMBEDDED_HIDDEN > 0
        if (h == EMBEDDED_HIDDEN) {
            update_view(net, parent->v[view], child->v[view], d, view, king, EMBEDDED_HIDDEN);
            continue;
        }
#endif
        update_view(net, parent->v[view], child->v[view], d, view, king, h);
    }
}

// The output layer's sum over one half: SCReLU(v) . w, with c = clamp(v, 0, QA).
KERNEL int64_t half_sum(const int16_t *restrict v, const int16_t *restrict w, int from, int h)
{
    int64_t sum = 0;
    for (int j = from; j < h; j++) {
        int32_t c = v[j] < 0 ? 0 : v[j] > NNUE_QA ? NNUE_QA : v[j];
        sum += (int64_t)(c * c) * w[j];
    }
    return sum;
}

// NNUE_SIMD_OUTPUT: the output layer has an intrinsics form for this target.
#if defined(__AVX512BW__) || defined(__AVX2__)
#define NNUE_SIMD_OUTPUT 1
#else
#define NNUE_SIMD_OUTPUT 0
#endif

#if NNUE_SIMD_OUTPUT
// The instructions output_sum_simd needs, in the widest registers the target has.
#if defined(__AVX512BW__)
typedef __m512i VecI16;
enum { VEC_I16 = 32 }; // int16 lanes in a register
#define vec_zero() _mm512_setzero_si512()
#define vec_set1(x) _mm512_set1_epi16(x)
#define vec_load(p) _mm512_loadu_si512((const void *)(p))
#define vec_store(p, v) _mm512_storeu_si512((void *)(p), v)
#define vec_max16(a, b) _mm512_max_epi16(a, b)
#define vec_min16(a, b) _mm512_min_epi16(a, b)
#define vec_mullo16(a, b) _mm512_mullo_epi16(a, b)
#define vec_madd16(a, b) _mm512_madd_epi16(a, b)
#define vec_add32(a, b) _mm512_add_epi32(a, b)
#else
typedef __m256i VecI16;
enum { VEC_I16 = 16 };
#define vec_zero() _mm256_setzero_si256()
#define vec_set1(x) _mm256_set1_epi16(x)
#define vec_load(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define vec_store(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define vec_max16(a, b) _mm256_max_epi16(a, b)
#define vec_min16(a, b) _mm256_min_epi16(a, b)
#define vec_mullo16(a, b) _mm256_mullo_epi16(a, b)
#define vec_madd16(a, b) _mm256_madd_epi16(a, b)
#define vec_add32(a, b) _mm256_add_epi32(a, b)
#endif

// The same sum for both halves in 16-bit lanes: c * w fits 16 bits when |w| <= 127 (c <=
// 255), and madd against c adds pairs of c * c * w (each under 2^23.1) into 32-bit lanes;
// over 2 x 512 neurons a lane of AVX2 gathers 128 of them, under 2^31 (AVX-512: 64), and
// the lanes are added as 64 bits. The result is the exact integer the scalar loop gives.
KERNEL int64_t output_sum_simd(const int16_t *out_w, const int16_t *us, const int16_t *them, int h)
{
    const VecI16 zero = vec_zero(), qa = vec_set1(NNUE_QA);
    VecI16 acc = vec_zero();
    int simd_h = h & ~(VEC_I16 - 1);
    int64_t tail = 0;
    for (int half = 0; half < 2; half++) {
        const int16_t *v = half ? them : us, *w = out_w + half * h;
        for (int j = 0; j < simd_h; j += VEC_I16) {
            VecI16 c = vec_min16(vec_max16(vec_load(v + j), zero), qa);
            acc = vec_add32(acc, vec_madd16(vec_mullo16(c, vec_load(w + j)), c));
        }
        tail += half_sum(v, w, simd_h, h);
    }
    int32_t lanes[VEC_I16 / 2];
    vec_store(lanes, acc);
    for (int i = 0; i < VEC_I16 / 2; i++)
        tail += lanes[i];
    return tail;
}
#endif

// The output layer's sum for the side to move's half us and the other half them.
KERNEL int64_t output_sum(const Nnue *net, const int16_t *out_w, const int16_t *us, const int16_t *them, int h)
{
#if NNUE_SIMD_OUTPUT
    if (net->small_out)
        return output_sum_simd(out_w, us, them, h);
#else
    (void)net;
#endif
    return half_sum(us, out_w, 0, h) + half_sum(them, out_w + h, 0, h);
}

Score nnue_evaluate(const Nnue *net, const Accumulator *acc, int side, int pieces)
{
    int h = net->hidden, b = nnue_bucket(net->buckets, pieces);
    const int16_t *us = acc->v[side], *them = acc->v[!side], *out_w = net->out_w + (size_t)b * 2 * (size_t)h;
#if EMBEDDED_HIDDEN > 0
    int64_t sum = h == EMBEDDED_HIDDEN ? output_sum(net, out_w, us, them, EMBEDDED_HIDDEN)
                                       : output_sum(net, out_w, us, them, h);
#else
    int64_t sum = output_sum(net, out_w, us, them, h);
#endif
    int64_t out = sum / NNUE_QA + net->out_b[b];
    // out * SCALE / (QA * QB), truncated toward zero, in two steps: by the constant QA (a
    // multiply), then by QB, a power of two (nnue_header_read), as a shift of the magnitude,
    // not a 64-bit division on every evaluation.
    int64_t x = out * NNUE_SCALE / NNUE_QA, mag = (x < 0 ? -x : x) >> __builtin_ctz((unsigned)net->qb);
    Score s = (Score)(x < 0 ? -mag : mag);
    // Never a mate score: the search keeps those for mates.
    Score cap = SCORE_TB_WIN_IN_MAX - 1;
    return s > cap ? cap : s < -cap ? -cap : s;
}
