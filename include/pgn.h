// SPDX-License-Identifier: MIT
// A PGN reader for match runners' games (fastchess, cutechess-cli): one game at a time,
// its start position, result, and each move with the score and depth its engine gave
// in the move's comment ("+0.35/12 0.123s, n=5000, sd=15", "-M5/20 ...", "book").
// Variations, NAGs and other comments are skipped. Read by tools/pgn2data.
#ifndef OUTPOST_PGN_H
#define OUTPOST_PGN_H

#include <stdbool.h>
#include <stdio.h>

#include "position.h"

enum { PGN_MAX_PLIES = 1024 };

typedef struct {
    Move move;
    bool scored;  // the comment gave a score (not a book move, not missing)
    Score score;  // the mover's view, centipawns; mates as mate_in/mated_in plies
    int depth;    // the comment's depth (0 when not given)
} PgnMove;

typedef struct {
    int result;            // for white: 2 win, 1 draw, 0 loss; -1 unfinished ("*") or absent
    bool chess960;         // [Variant "chess960"] or "fischerandom"
    char fen[FEN_MAX];     // the start position ([FEN]; the standard one when absent)
    int n;                 // plies
    PgnMove moves[PGN_MAX_PLIES];
} PgnGame;

typedef struct {
    FILE *f;
    long line;       // lines read so far
    char *pending;   // a header line read past the previous game's end, or NULL
    char *buf;       // line buffer
    size_t cap;
} PgnReader;

void pgn_open(PgnReader *r, FILE *f);
void pgn_close(PgnReader *r); // frees the reader's buffers, not the stream

// Reads the next game into g. Returns 1 for a game, 0 at the end of the input, -1 for a
// malformed game (an illegal or unreadable move, a bad FEN, more than PGN_MAX_PLIES
// plies; the reason in err): the reader then stands after that game, so the next call
// reads the one after it. A game with a start position and no moves is a game of 0 plies.
int pgn_next_game(PgnReader *r, PgnGame *g, char *err, size_t err_size);

// The score and depth of a move comment (fastchess's and cutechess-cli's "+0.35/12 ...",
// "-M5/20 ..."; the sign and value are the mover's view, mates in plies): false for
// "book" and for comments without a score.
bool pgn_comment_score(const char *comment, Score *score, int *depth);

#endif
