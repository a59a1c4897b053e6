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
    NNUE_QB = 64,      // output layer quantisation
    NNUE_SCALE = 400,  // centipawns per unit of the output
};

/*
 * An exported network, little-endian:
 *   header  u32: magic "OPNN" (0x4E4E504F), version, inputs 768, hidden H, activation 1
 *           (SCReLU), QA, QB, SCALE, then in version 2 the bucket count B, and last the
 *           FNV-1a 32 checksum of the payload; version 1 (9 words) is the form of B = 1
 *   payload int16 ft_w[768][H] (x QA), int16 ft_b[H] (x QA), int16 out_w[B][2H] (x QB),
 *           int32 out_b[B] (x QA x QB)
 * A network of one bucket is written as version 1, so the networks of before buckets
 * export to the same bytes.
 */
enum {
    NNUE_MAGIC = 0x4E4E504Fu,
    NNUE_ACT_SCRELU = 1,
    NNUE_HEADER_MAX_WORDS = 10,
};
#define NNUE_FNV_BASIS 2166136261u // FNV-1a's offset basis (above INT_MAX: no enum)

// What a header says of its network.
typedef struct {
    uint32_t version, hidden, buckets, checksum;
    size_t words; // header words: 9 in version 1, 10 in version 2
} NnueHeader;

// The feature of a piece (colour * 6 + type) on a square (a1 = 0) seen by perspective
// `view` (0 white, 1 black): own pieces first, black's view mirrored vertically.
static inline int nnue_feature(int view, int piece, int sq)
{
    return ((piece / 6 == view ? 0 : 1) * 6 + piece % 6) * 64 + (view == 0 ? sq : sq ^ 56);
}

// FNV-1a (32 bits) of n bytes, continuing from h (NNUE_FNV_BASIS to start).
static inline uint32_t nnue_fnv1a(const uint8_t *p, size_t n, uint32_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

// The payload's size in bytes for H hidden neurons and B buckets.
static inline size_t nnue_payload_bytes(size_t hidden, size_t buckets)
{
    return ((size_t)NNUE_INPUTS * hidden + hidden + 2 * hidden * buckets) * 2 + 4 * buckets;
}

// Fills words (NNUE_HEADER_MAX_WORDS of room) with the header of a network; returns how
// many words it has (the version follows from the bucket count).
static inline size_t nnue_header_write(uint32_t *words, uint32_t hidden, uint32_t buckets, uint32_t checksum)
{
    size_t n = 0;
    words[n++] = NNUE_MAGIC;
    words[n++] = buckets == 1 ? 1 : 2;
    words[n++] = NNUE_INPUTS;
    words[n++] = hidden;
    words[n++] = NNUE_ACT_SCRELU;
    words[n++] = NNUE_QA;
    words[n++] = NNUE_QB;
    words[n++] = NNUE_SCALE;
    if (buckets != 1) // version 2 adds the bucket count
        words[n++] = buckets;
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
    size_t words = version == 1 ? 9 : 10;
    if ((version != 1 && version != 2) || size < words * 4)
        return false;
    for (size_t i = 0; i < words; i++) {
        const uint8_t *p = data + 4 * i;
        w[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
    if (w[0] != NNUE_MAGIC || w[2] != NNUE_INPUTS || w[3] < 1 || w[4] != NNUE_ACT_SCRELU || w[5] != NNUE_QA
        || w[6] != NNUE_QB || w[7] != NNUE_SCALE || (version == 2 && w[8] < 1))
        return false;
    *h = (NnueHeader){version, w[3], version == 1 ? 1 : w[8], w[words - 1], words};
    return true;
}

#endif
