// SPDX-License-Identifier: MIT
// Packing and unpacking of the 32-byte training record (layout in packpos.h).
#include "packpos.h"

#include <stdio.h>
#include <string.h>

static void put16(uint8_t *p, unsigned v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static unsigned get16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }

void packpos_pack(const Position *pos, Score score, Move move, int result, PackedPos *out)
{
    uint8_t *b = out->bytes;
    memset(b, 0, sizeof out->bytes);
    Bitboard occ = pos_occupied(pos);
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(occ >> (8 * i));
    int n = 0;
    for (Bitboard o = occ; o; n++) {
        Square sq = pop_lsb(&o);
        b[8 + n / 2] |= (uint8_t)(pos->board[sq] << (4 * (n & 1)));
    }
    const StateInfo *st = pos_state(pos);
    b[24] = (uint8_t)((pos->side == BLACK ? 0x80 : 0) | (st->castling & 15));
    b[25] = (uint8_t)(st->ep == SQ_NONE ? 64 : st->ep);
    b[26] = (uint8_t)(st->rule50 < 255 ? st->rule50 : 255);
    b[27] = (uint8_t)result;
    put16(b + 28, (unsigned)(uint16_t)(int16_t)score);
    put16(b + 30, move);
}

bool packpos_unpack(const PackedPos *in, UnpackedPos *out)
{
    const uint8_t *b = in->bytes;
    Bitboard occ = 0;
    for (int i = 0; i < 8; i++)
        occ |= (Bitboard)b[i] << (8 * i);
    if (popcount(occ) > 32 || b[27] > 2 || (b[25] > 64))
        return false;
    uint8_t board[64];
    memset(board, NO_PIECE, sizeof board);
    int n = 0;
    for (Bitboard o = occ; o; n++) {
        int piece = (b[8 + n / 2] >> (4 * (n & 1))) & 15;
        if (piece >= PIECE_NB)
            return false;
        board[pop_lsb(&o)] = (uint8_t)piece;
    }
    char *f = pos_write_placement(board, out->fen);
    int castling = b[24] & 15;
    char rights[5] = "", *r = rights;
    if (castling & WHITE_OO) *r++ = 'K';
    if (castling & WHITE_OOO) *r++ = 'Q';
    if (castling & BLACK_OO) *r++ = 'k';
    if (castling & BLACK_OOO) *r++ = 'q';
    *r = '\0';
    char ep[3] = "-";
    if (b[25] < 64)
        snprintf(ep, sizeof ep, "%c%c", 'a' + sq_file(b[25]), '1' + sq_rank(b[25]));
    out->side = b[24] & 0x80 ? BLACK : WHITE;
    snprintf(f, (size_t)(out->fen + FEN_MAX - f), " %c %s %s %d 1", out->side == BLACK ? 'b' : 'w',
             castling ? rights : "-", ep, b[26]);
    out->score = (int16_t)get16(b + 28);
    out->move = (Move)get16(b + 30);
    out->result = b[27];
    return true;
}
