// SPDX-License-Identifier: MIT
// The engine state behind the UCI front end (the position, the TT, the thread pool, the
// options' values, changes waiting for the search to end) and its output: whole lines
// under a lock, so the lines of the search and of the protocol never mix. Shared by the
// protocol (uci.c), the options (options.c) and the job thread (job.c), which sit above it.
#ifndef OUTPOST_ENGINE_H
#define OUTPOST_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "book.h"
#include "nnue.h"
#include "position.h"
#include "search.h"
#include "syzygy.h"
#include "threads.h"
#include "tt.h"

// Upper bounds for sessions that must stay short whatever they are sent (the fuzzer and
// the tests that replay its inputs). A field of 0 means no cap.
typedef struct {
    uint64_t max_nodes;  // every search also stops after this many nodes
    size_t max_hash_mb;  // larger Hash values are lowered to this
    int max_perft_depth; // go perft N and bench depths above this are lowered to it
    int max_threads;     // larger Threads values are lowered to this
} UciCaps;

// What the job thread runs.
typedef enum { JOB_SEARCH, JOB_PERFT, JOB_BENCH } JobKind;

typedef struct {
    FILE *out;
    UciCaps caps;
    pthread_mutex_t out_lock;
    bool debug;       // `debug on`: diagnostics as info strings

    Position pos;     // set by `position`; copied into the search at `go`
    TT tt;
    ThreadPool *pool; // the search threads; thread 0 is run by the job thread
    SearchControl ctl;
    pthread_t handle;
    JobKind job;
    int job_depth;    // perft or bench depth
    bool searching;   // a job thread was started and not yet joined
    bool unbounded;   // that job has no limit of its own (infinite, mate only, none)
    atomic_bool finished; // the job is done (a search has printed bestmove)

    // The options' values (options.c holds their names, ranges and defaults).
    size_t hash_mb;
    int threads;
    int multipv;
    int64_t move_overhead;
    bool ponder;
    bool chess960;
    bool show_wdl;
    Nnue net;            // EvalFile's network (none until one is loaded)
    Nnue pending_net;    // one loaded during a search, swapped in after it
    bool use_nnue;       // Use NNUE
    bool limit_strength; // UCI_LimitStrength
    int elo;             // UCI_Elo
    bool own_book;    // OwnBook: play from the book when the position is in it
    bool book_best;   // BookBestMove: always the heaviest entry
    Book book;        // BookFile, open when one was set and passed its checks
    uint64_t rng;     // the book's and the weakened search's randomness
    Syzygy *tb;       // SyzygyPath's tables
    int tb_probe_depth; // SyzygyProbeDepth
    int tb_probe_limit; // SyzygyProbeLimit
    bool tb_rule50;     // Syzygy50MoveRule
    SearchParams params; // the search's named parameters (options in a TUNE=1 build)
    // Changes asked for while a search runs, applied once it has ended (job.c).
    int pending_threads;
    size_t pending_hash_mb;
    bool pending_clear;
    char *pending_tb_path; // SyzygyPath set during a search
} Engine;

// Writes one whole line to e->out under the lock (an OutputFn: ctx is the Engine).
void engine_write_line(void *ctx, const char *line);

// A formatted line, its whitespace runs made single spaces (it may quote what a client
// sent, such as a file name with two spaces or a tab, and UCI lines are single-spaced).
void engine_say(Engine *e, const char *fmt, ...);

// A diagnostic for `debug on`: "info string debug: ...", printed only in debug mode.
void engine_debug(Engine *e, const char *fmt, ...);

// Parses a whole token as a signed integer; false if it is not one (or s is NULL).
bool engine_parse_int(const char *s, int64_t *out);

// Loads the tables of a SyzygyPath value and says what was found.
void engine_set_tb_path(Engine *e, const char *path);

// The main search thread (thread 0 of the pool).
static inline SearchThread *engine_main_thread(Engine *e) { return pool_thread(e->pool, 0); }

#endif
