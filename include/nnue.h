// SPDX-License-Identifier: MIT
// The network evaluation (docs/NNUE.md): a (768 -> H) x 2 -> 1 SCReLU network with B
// output buckets (the output layer chosen by the number of pieces on the board) in the
// quantised format tools/train exports, and its accumulators, updated move by move
// beside the search's make/unmake. The network is read-only once loaded and shared by
// every search thread; each thread owns its accumulators.
#ifndef OUTPOST_NNUE_H
#define OUTPOST_NNUE_H

#include "nnue_format.h"
#include "position.h"

// What this engine reads (nnue_format.h has the file format).
enum {
    NNUE_MAX_HIDDEN = 512,
    NNUE_MAX_BUCKETS = 8,
};

typedef struct {
    int hidden, buckets;
    int qb; // the output layer's quantisation (the header's QB)
    NnueInputs inputs; // the input layer's shape: plain 768, or king buckets (version 3)
    uint32_t checksum; // the header's checksum of every weight: the network's name in logs
    int16_t *ft_w;  // [nnue_input_count(&inputs)][hidden]
    int16_t *ft_b;  // [hidden]
    int16_t *out_w; // [buckets][2 * hidden]: the side to move's half first
    int32_t out_b[NNUE_MAX_BUCKETS];
    bool small_out; // every output weight within +-127: the SIMD output layer's bound
    void *memory;   // what nnue_free releases (cache-line aligned: so are the rows)
} Nnue;

// Loads a network file; on failure writes the reason to err, leaves net unchanged and
// returns false (a missing, truncated, altered or foreign file; a layer wider than
// NNUE_MAX_HIDDEN or more than NNUE_MAX_BUCKETS buckets). On success the weights net held
// are freed, so net must be zeroed or hold a loaded network.
bool nnue_load(Nnue *net, const char *path, char *err, size_t err_size);
// The same from a network file's bytes; `name` is what err calls it.
bool nnue_load_memory(Nnue *net, const uint8_t *data, size_t size, const char *name, char *err, size_t err_size);
void nnue_free(Nnue *net);

// Whether the build embedded a network (make EVALFILE=..., or nets/default.nnue), and
// loading it (false, with the reason in err, if there is none or it is unusable).
bool nnue_has_embedded(void);
bool nnue_load_embedded(Nnue *net, char *err, size_t err_size);

// The feature-layer sums of both perspectives (index: the perspective's colour).
// Aligned to a cache line, so that no vector load of a row straddles two (a SearchThread
// holding accumulators is allocated aligned: platform_calloc_aligned).
typedef struct {
    _Alignas(64) int16_t v[COLOR_NB][NNUE_MAX_HIDDEN];
} Accumulator;

// The accumulator of pos computed from scratch.
void nnue_refresh(const Nnue *net, const Position *pos, Accumulator *acc);

// The pieces a move takes off and puts on the board (castling moves two of each).
typedef struct {
    int n_sub, n_add;
    int sub_piece[2], add_piece[2];
    Square sub_sq[2], add_sq[2];
} NnueDelta;

// The delta of a legal move m in pos, before it is made.
void nnue_delta(const Position *pos, Move m, NnueDelta *d);

// child = parent over the network's width only (a null move's copy).
void nnue_copy(const Nnue *net, const Accumulator *parent, Accumulator *child);

// A search thread's refresh cache for king-bucket networks ("finny tables"): for each
// perspective, king region and side of the mirror, the sums of the pieces it last held.
// Rebuilding a perspective after a king move across regions then adds and takes off only
// the pieces that differ from that entry, not all of them.
typedef struct {
    _Alignas(64) int16_t v[COLOR_NB][NNUE_MAX_KING_BUCKETS][2][NNUE_MAX_HIDDEN];
    Bitboard pieces[COLOR_NB][NNUE_MAX_KING_BUCKETS][2][PIECE_NB];
    bool valid[COLOR_NB][NNUE_MAX_KING_BUCKETS][2];
    const Nnue *net; // the network the entries were built for
} NnueCache;

// Empties a cache (before a search: the network may have changed).
void nnue_cache_reset(NnueCache *cache);

// child = parent changed by d; after is the position once the move is made (the kings'
// squares, and what a king move across buckets rebuilds from, through cache when it is
// not NULL).
void nnue_apply(const Nnue *net, const Accumulator *parent, Accumulator *child, const NnueDelta *d,
                const Position *after, NnueCache *cache);

// The output bucket of a position with `pieces` pieces on the board (kings included, 2
// to 32): equal ranges of the piece count, the fullest boards in the last bucket.
static inline int nnue_bucket(int buckets, int pieces)
{
    int b = (pieces - 2) * buckets / 32;
    return b < 0 ? 0 : b >= buckets ? buckets - 1 : b;
}

// The evaluation in centipawns for `side` to move, with `pieces` pieces on the board.
Score nnue_evaluate(const Nnue *net, const Accumulator *acc, int side, int pieces);

#endif
