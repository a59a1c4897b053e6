// SPDX-License-Identifier: MIT
// Bitboard primitives: population count, least significant bit, shifts and fixed masks.
#ifndef OUTPOST_BITBOARD_H
#define OUTPOST_BITBOARD_H

#include "types.h"

enum {
    FILE_A = 0, FILE_H = 7, RANK_1 = 0, RANK_8 = 7,
};

static const Bitboard FILE_A_BB = 0x0101010101010101ULL;
static const Bitboard RANK_1_BB = 0xFFULL;

static inline Bitboard sq_bb(Square sq) { return 1ULL << sq; }
static inline Bitboard file_bb(int file) { return FILE_A_BB << file; }
static inline Bitboard rank_bb(int rank) { return RANK_1_BB << (8 * rank); }

static inline int popcount(Bitboard b)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(b);
#else
    int n = 0;
    for (; b; b &= b - 1)
        n++;
    return n;
#endif
}

// Index of the least significant set bit; b must not be 0.
static inline Square lsb(Bitboard b)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(b);
#else
    Square sq = 0;
    while (!(b & 1)) {
        b >>= 1;
        sq++;
    }
    return sq;
#endif
}

// Index of the most significant set bit; b must not be 0.
static inline Square msb(Bitboard b)
{
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(b);
#else
    Square sq = 63;
    while (!(b & (1ULL << 63))) {
        b <<= 1;
        sq--;
    }
    return sq;
#endif
}

// Removes and returns the least significant set bit of *b; *b must not be 0.
static inline Square pop_lsb(Bitboard *b)
{
    Square sq = lsb(*b);
    *b &= *b - 1;
    return sq;
}

static inline bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

static inline Bitboard shift_north(Bitboard b) { return b << 8; }
static inline Bitboard shift_south(Bitboard b) { return b >> 8; }
static inline Bitboard shift_east(Bitboard b) { return (b << 1) & ~file_bb(FILE_A); }
static inline Bitboard shift_west(Bitboard b) { return (b >> 1) & ~file_bb(FILE_H); }
// One step forward for `color`.
static inline Bitboard shift_up(Bitboard b, int color) { return color == WHITE ? b << 8 : b >> 8; }

// Squares attacked by all pawns of `color` in b.
static inline Bitboard pawn_attacks_bb(Bitboard b, int color)
{
    Bitboard up = shift_up(b, color);
    return shift_east(up) | shift_west(up);
}

#endif
