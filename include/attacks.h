// SPDX-License-Identifier: MIT
// Attack tables: leapers (pawn, knight, king) by lookup, sliders by magic bitboards whose
// magics were searched at build time from a fixed seed (see magic.h). Also the
// between/line masks used for pins and checks. Every table is written once by attacks_init() and read-only after.
#ifndef OUTPOST_ATTACKS_H
#define OUTPOST_ATTACKS_H

#include "types.h"

typedef struct {
    Bitboard mask;  // relevant occupancy (board edges excluded)
    Bitboard magic;
    Bitboard *table;
    int shift;
} Magic;

typedef struct {
    Bitboard pawn[COLOR_NB][64];
    Bitboard knight[64];
    Bitboard king[64];
    Magic rook_magic[64];
    Magic bishop_magic[64];
    Bitboard between[64][64]; // squares strictly between two aligned squares, else 0
    Bitboard line[64][64];    // the whole line through two aligned squares, else 0
    Bitboard rook_table[102400];
    Bitboard bishop_table[5248];
} AttackTables;

// The tables; valid after attacks_init().
extern AttackTables attack_tables;

// Fills every table. Idempotent; must run before any other function here is used.
void attacks_init(void);

static inline Bitboard magic_lookup(const Magic *m, Bitboard occupied)
{
    return m->table[((occupied & m->mask) * m->magic) >> m->shift];
}

static inline Bitboard pawn_attacks(int color, Square sq) { return attack_tables.pawn[color][sq]; }
static inline Bitboard knight_attacks(Square sq) { return attack_tables.knight[sq]; }
static inline Bitboard king_attacks(Square sq) { return attack_tables.king[sq]; }
static inline Bitboard bishop_attacks(Square sq, Bitboard occupied)
{
    return magic_lookup(&attack_tables.bishop_magic[sq], occupied);
}
static inline Bitboard rook_attacks(Square sq, Bitboard occupied)
{
    return magic_lookup(&attack_tables.rook_magic[sq], occupied);
}
static inline Bitboard queen_attacks(Square sq, Bitboard occupied)
{
    return bishop_attacks(sq, occupied) | rook_attacks(sq, occupied);
}
static inline Bitboard between_bb(Square a, Square b) { return attack_tables.between[a][b]; }
static inline Bitboard line_bb(Square a, Square b) { return attack_tables.line[a][b]; }

// Attacks of a non-pawn piece type from sq given the occupancy.
static inline Bitboard piece_attacks(int type, Square sq, Bitboard occupied)
{
    switch (type) {
    case KNIGHT: return knight_attacks(sq);
    case BISHOP: return bishop_attacks(sq, occupied);
    case ROOK: return rook_attacks(sq, occupied);
    case QUEEN: return queen_attacks(sq, occupied);
    default: return king_attacks(sq);
    }
}

#endif
