// SPDX-License-Identifier: MIT
// The fuzz targets. Each takes one input of any bytes and aborts (with a message on
// stderr) when the code under test breaks a rule; libFuzzer drives them (make fuzz), and
// tests/test_fuzz_replay.c replays the seed corpus and every saved crash in make test.
#ifndef OUTPOST_FUZZ_H
#define OUTPOST_FUZZ_H

#include <stddef.h>
#include <stdint.h>

// A whole UCI session: the input is the lines a client sends, in any order.
int fuzz_uci(const uint8_t *data, size_t size);
// The FEN parser: byte 0 picks Chess960 mode, the rest is the FEN text.
int fuzz_fen(const uint8_t *data, size_t size);
// The move parsers (UCI and SAN): byte 0 picks a position, the rest is moves text.
int fuzz_move(const uint8_t *data, size_t size);

// The Polyglot book reader: the input is a book file, opened and probed.
int fuzz_book(const uint8_t *data, size_t size);

// The Syzygy table reader: byte 0 picks a table and WDL or DTZ, the rest is its file.
int fuzz_syzygy(const uint8_t *data, size_t size);

// The PGN reader: the input is a PGN file, read game by game.
int fuzz_pgn(const uint8_t *data, size_t size);

// Aborts with a message when ok is false (shared by the targets).
void fuzz_check(int ok, const char *what);
// Builds the attack, key and score tables; cheap after the first call.
void fuzz_init(void);

#endif
