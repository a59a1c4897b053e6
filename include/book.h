// SPDX-License-Identifier: MIT
// Polyglot opening books: the position key of the Polyglot format and look-up in a book
// file of 16-byte big-endian entries sorted by key. The file is read on demand (binary
// search with seeks), so a book of any size costs no memory.
#ifndef OUTPOST_BOOK_H
#define OUTPOST_BOOK_H

#include <stdio.h>

#include "position.h"

// The Polyglot key of pos (en passant counted only when a pawn of the side to move can
// take, as the format says; castling as rights).
Key book_key(const Position *pos);

typedef struct {
    FILE *f;
    uint64_t entries;
} Book;

// Opens and checks a book: it must exist, hold a whole number of 16-byte entries and be
// sorted by key (checked once, reading the file in chunks). On failure writes the problem
// to err, leaves book closed and returns false.
bool book_open(Book *book, const char *path, char *err, size_t err_size);
void book_close(Book *book);

typedef struct {
    Move move;
    int weight;
} BookMove;

enum { BOOK_MAX_MOVES = 64 };

// The legal moves the book holds for pos, heaviest first (equal weights in file order);
// returns how many (at most BOOK_MAX_MOVES). Entries whose move is not legal here are
// skipped; castling entries (king takes rook, e1h1) become the engine's castling move.
int book_probe(const Book *book, const Position *pos, BookMove *out);

// A move among n, chosen with probability proportional to its weight (r: a random
// number); the heaviest when best is true. Entries of weight 0 count as 1 when all are 0.
Move book_choose(const BookMove *moves, int n, bool best, uint64_t r);

#endif
