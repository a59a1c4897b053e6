// SPDX-License-Identifier: MIT
// The network file format, declared once for the engine (nnue.c reads it) and the trainer
// (tools/nnue_train.c writes it): the input features, the quantisation, the header and
// its checksum. Header-only, so that neither side calls the other.
#ifndef OUTPOST_NNUE_FORMAT_H
#define OUTPOST_NNUE_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    NNUE_INPUTS = 768, // colour (own, other) x piece type x square, per perspective
    NNUE_QA = 255,     // feature layer quantisation
    NNUE_QB = 64,      // output layer quantisation: the least, and that of every network before
    NNUE_QB_MAX = 1024, // a larger QB, a power of two up to this, is the exporter's choice
    NNUE_SCALE = 400,  // centipawns per unit of the output
};

/*
 * An exported network, little-endian:
 *   header  u32: magic "OPNN" (0x4E4E504F), version, inputs 768, hidden H, activation 1
 *           (SCReLU), QA, QB, SCALE, then in version 2 the output bucket count B, in
 *           version 3 B, the king bucket count K and the king layout (32 bytes in 8
 *           words: the bucket of each own-king square on files e-h, rank-major from the
 *           own first rank, files e to h), and last the FNV-1a 32 checksum of the
 *           payload; version 1 (9 words) is the form of B = 1 without king buckets
 *   payload int16 ft_w[K' * 768][H] (x QA; K' = K in version 3, else 1), int16 ft_b[H]
 *           (x QA), int16 out_w[B][2H] (x QB), int32 out_b[B] (x QA x QB)
 * QB is 64 or a larger power of two up to NNUE_QB_MAX: the exporter takes the finest grid
 * on which every output weight stays within +-127 (the engine's SIMD output layer's bound),
 * since the 1/64 grid is coarse for the small output weights of a wide network.
 * A network of one bucket without king buckets is written as version 1, so the networks
 * of before buckets export to the same bytes.
 *
 * King buckets (version 3): each perspective sees the board mirrored left-right when its
 * own king stands on files a-d, so that the king is always on files e-h, and its
 * features are those of 768 inputs repeated per bucket of the king's (mirrored) square.
 */
enum {
    NNUE_MAGIC = 0x4E4E504Fu,
    NNUE_ACT_SCRELU = 1,
    NNUE_HEADER_MAX_WORDS = 19,
    NNUE_MAX_KING_BUCKETS = 16,
};

// The input layer's shape: kbuckets 0 is the plain 768 inputs (versions 1 and 2), 1 or
// more the mirrored king-bucketed inputs of version 3 with their layout.
typedef struct {
    int kbuckets;
    uint8_t layout[32]; // bucket of each own-king square on files e-h (rank * 4 + file - 4)
} NnueInputs;

// The number of inputs per perspective of that shape.
static inline int nnue_input_count(const NnueInputs *in) { return (in->kbuckets ? in->kbuckets : 1) * 768; }
#define NNUE_FNV_BASIS 2166136261u // FNV-1a's offset basis (above INT_MAX: no enum)

// What a header says of its network.
typedef struct {
    uint32_t version, hidden, buckets, qb, checksum;
    NnueInputs inputs;
    size_t words; // header words: 9 in version 1, 10 in version 2, 19 in version 3
} NnueHeader;

// The feature of a piece (colour * 6 + type) on a square (a1 = 0) seen by perspective
// `view` (0 white, 1 black): own pieces first, black's view mirrored vertically.
static inline int nnue_feature(int view, int piece, int sq)
{
    // ((piece / 6 == view ? 0 : 1) * 6 + piece % 6) * 64, looked up: this runs for every update
    static const int16_t base[2][12] = {{0, 64, 128, 192, 256, 320, 384, 448, 512, 576, 640, 704},
                                        {384, 448, 512, 576, 640, 704, 0, 64, 128, 192, 256, 320}};
    return base[view][piece] + (sq ^ (view * 56));
}

// The feature of a piece on sq seen by `view` whose own king stands on king_sq, in a
// network of the inputs `in` (nnue_feature when it has no king buckets).
static inline int nnue_feature_in(const NnueInputs *in, int view, int piece, int sq, int king_sq)
{
    if (!in->kbuckets)
        return nnue_feature(view, piece, sq);
    int ks = view == 0 ? king_sq : king_sq ^ 56, mirror = (ks & 7) < 4 ? 7 : 0;
    ks ^= mirror;
    int bucket = in->layout[(ks >> 3) * 4 + (ks & 7) - 4];
    return bucket * 768 + nnue_feature(view, piece, sq ^ mirror);
}

// Whether a king move from `from` to `to` changes what the king's own perspective sees
// (its bucket or its mirroring): that perspective must then be rebuilt.
static inline bool nnue_king_changes_view(const NnueInputs *in, int view, int from, int to)
{
    if (!in->kbuckets)
        return false;
    int f = view == 0 ? from : from ^ 56, t = view == 0 ? to : to ^ 56;
    int fm = (f & 7) < 4 ? 7 : 0, tm = (t & 7) < 4 ? 7 : 0;
    f ^= fm;
    t ^= tm;
    return fm != tm || in->layout[(f >> 3) * 4 + (f & 7) - 4] != in->layout[(t >> 3) * 4 + (t & 7) - 4];
}

// FNV-1a (32 bits) of n bytes, continuing from h (NNUE_FNV_BASIS to start).
static inline uint32_t nnue_fnv1a(const uint8_t *p, size_t n, uint32_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

// The payload's size in bytes for `inputs` inputs per perspective, H hidden neurons and B
// output buckets.
static inline size_t nnue_payload_bytes(size_t inputs, size_t hidden, size_t buckets)
{
    return (inputs * hidden + hidden + 2 * hidden * buckets) * 2 + 4 * buckets;
}

// Fills words (NNUE_HEADER_MAX_WORDS of room) with the header of a network; returns how
// many words it has (the version follows from the inputs and the bucket count).
static inline size_t nnue_header_write(uint32_t *words, const NnueInputs *in, uint32_t hidden, uint32_t buckets,
                                       uint32_t qb, uint32_t checksum)
{
    size_t n = 0;
    words[n++] = NNUE_MAGIC;
    words[n++] = in->kbuckets ? 3 : buckets == 1 ? 1 : 2;
    words[n++] = NNUE_INPUTS;
    words[n++] = hidden;
    words[n++] = NNUE_ACT_SCRELU;
    words[n++] = NNUE_QA;
    words[n++] = qb;
    words[n++] = NNUE_SCALE;
    if (buckets != 1 || in->kbuckets) // version 2 adds the bucket count
        words[n++] = buckets;
    if (in->kbuckets) { // version 3: the king buckets and their layout
        words[n++] = (uint32_t)in->kbuckets;
        for (int i = 0; i < 32; i += 4)
            words[n++] = (uint32_t)in->layout[i] | (uint32_t)in->layout[i + 1] << 8 | (uint32_t)in->layout[i + 2] << 16
                       | (uint32_t)in->layout[i + 3] << 24;
    }
    words[n++] = checksum;
    return n;
}

// Reads the header at the start of size bytes; false when it is not one of ours (another
// magic, version, input set, activation or quantisation, or no neurons or buckets).
static inline bool nnue_header_read(const uint8_t *data, size_t size, NnueHeader *h)
{
    uint32_t w[NNUE_HEADER_MAX_WORDS] = {0};
    uint32_t version = size >= 8 ? (uint32_t)data[4] | (uint32_t)data[5] << 8 | (uint32_t)data[6] << 16
                                           | (uint32_t)data[7] << 24
                                 : 0;
    size_t words = version == 1 ? 9 : version == 2 ? 10 : 19;
    if (version < 1 || version > 3 || size < words * 4)
        return false;
    for (size_t i = 0; i < words; i++) {
        const uint8_t *p = data + 4 * i;
        w[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
    if (w[0] != NNUE_MAGIC || w[2] != NNUE_INPUTS || w[3] < 1 || w[4] != NNUE_ACT_SCRELU || w[5] != NNUE_QA
        || w[6] < NNUE_QB || w[6] > NNUE_QB_MAX || (w[6] & (w[6] - 1)) || w[7] != NNUE_SCALE
        || (version >= 2 && w[8] < 1))
        return false;
    *h = (NnueHeader){version, w[3], version == 1 ? 1 : w[8], w[6], w[words - 1], {0}, words};
    if (version == 3) {
        if (w[9] < 1 || w[9] > NNUE_MAX_KING_BUCKETS)
            return false;
        h->inputs.kbuckets = (int)w[9];
        for (int i = 0; i < 32; i++) {
            h->inputs.layout[i] = (uint8_t)(w[10 + i / 4] >> (8 * (i % 4)));
            if (h->inputs.layout[i] >= w[9])
                return false;
        }
    }
    return true;
}

#endif
