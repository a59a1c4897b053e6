// SPDX-License-Identifier: MIT
// Syzygy endgame tablebases: finds the tables in the directories of SyzygyPath, maps each
// file on its first probe, and answers win/draw/loss (.rtbw) and distance-to-zeroing
// (.rtbz) questions for positions without castling rights. Written from the format's
// public description (docs/SYZYGY.md); any number of threads may probe at once.
#ifndef OUTPOST_SYZYGY_H
#define OUTPOST_SYZYGY_H

#include "position.h"
#include "types.h"

enum { TB_MAX_PIECES = 7 };

// Outcomes from the side to move's view, as the tables store them under the fifty-move
// rule: a cursed win is won but not within fifty moves, a blessed loss the other way.
enum { TB_LOSS = -2, TB_BLESSED_LOSS = -1, TB_DRAW = 0, TB_CURSED_WIN = 1, TB_WIN = 2 };

typedef struct Syzygy Syzygy;

// An empty set of tables (no path). Problems found later (a file that cannot be mapped
// or is corrupt) are reported through out as `info string` lines, once per file; out
// must be callable from any thread. NULL without memory.
Syzygy *tb_create(OutputFn out, void *out_ctx);
void tb_free(Syzygy *tb);

// Replaces the tables with those found in path: directories separated by ':' (';' on
// Windows); "" or "<empty>" for none. Counts the files found (*n_wdl, *n_dtz) and
// returns the most pieces of any table found (0: none). Not while a probe may run.
int tb_set_path(Syzygy *tb, const char *path, int *n_wdl, int *n_dtz);

// The most pieces of any table found (0: none).
int tb_largest(const Syzygy *tb);

// Win/draw/loss of pos for the side to move (TB_LOSS..TB_WIN). pos must have no castling
// rights; it is changed during the probe and restored. False when a table needed is
// missing or corrupt.
bool tb_probe_wdl(Syzygy *tb, Position *pos, int *wdl);

// Distance to zeroing in plies, positive when the side to move wins, 0 for a draw, with
// the tables' rounding (a value may be one ply more than the true distance); cursed wins
// and blessed losses are 100 plies further. False as for tb_probe_wdl.
bool tb_probe_dtz(Syzygy *tb, Position *pos, int *dtz);

// Root moves ranked by the tables: rank[i] for moves[i], higher is better; moves of equal
// rank are equally good (every win the fifty-move rule allows ranks the same), and
// score[i] is the score to report for it. With dtz, from the DTZ tables (`rule50`:
// whether the fifty-move rule counts), else from the WDL tables only. False when a table
// is missing: nothing is known then.
bool tb_rank_root_moves(Syzygy *tb, Position *pos, const Move *moves, int n, bool dtz, bool rule50,
                        int *rank, Score *score);

#endif
