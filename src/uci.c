// SPDX-License-Identifier: MIT
// UCI protocol: command parsing, options, and the life cycle of the job thread, which
// runs every long command (a search, go perft, bench) so that input is always read at once.
// Contract with the job thread: at most one job runs; `stop` and `ponderhit` only flip
// atomics in SearchControl; a new job stops the running one first; anything that touches
// the TT or the search state waits until the thread has been joined.
#define _POSIX_C_SOURCE 200809L
#include "uci.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench.h"
#include "book.h"
#include "move.h"
#include "nnue.h"
#include "perft.h"
#include "rng.h"
#include "platform.h"
#include "root.h"
#include "strength.h"
#include "syzygy.h"
#include "threads.h"

enum { MAX_TOKENS = 16384, HASH_MAX_MB = 65536 };

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

    // Options.
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
    // Changes asked for while a search runs, applied once it has ended.
    int pending_threads;
    size_t pending_hash_mb;
    bool pending_clear;
    char *pending_tb_path; // SyzygyPath set during a search
} Engine;

/* ---------------------------------------------------------------- output */

// Writes one whole line under the lock, so lines of different threads never mix.
static void write_line(void *ctx, const char *line)
{
    Engine *e = ctx;
    pthread_mutex_lock(&e->out_lock);
    fputs(line, e->out);
    fputc('\n', e->out);
    fflush(e->out);
    pthread_mutex_unlock(&e->out_lock);
}

// A formatted line, its whitespace runs made single spaces (it may quote what a client
// sent, such as a file name with two spaces or a tab, and UCI lines are single-spaced).
static void say(Engine *e, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    char *out = line;
    for (const char *p = line; *p; p++) {
        bool blank = isspace((unsigned char)*p);
        if (!blank || (out > line && out[-1] != ' '))
            *out++ = blank ? ' ' : *p;
    }
    while (out > line && out[-1] == ' ')
        out--;
    *out = '\0';
    write_line(e, line);
}

// A diagnostic for `debug on`: an info string, printed only in debug mode.
static void debug_say(Engine *e, const char *fmt, ...)
{
    if (!e->debug)
        return;
    char line[1024];
    int n = snprintf(line, sizeof line, "info string debug: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    write_line(e, line);
}

/* ---------------------------------------------------------------- search thread */

static SearchThread *main_thread(Engine *e) { return pool_thread(e->pool, 0); }

static size_t bench_hash_mb(const Engine *e) { return e->caps.max_hash_mb ? e->caps.max_hash_mb : 16; }

static void run_job(Engine *e)
{
    switch (e->job) {
    case JOB_SEARCH:
        root_search(main_thread(e));
        break;
    case JOB_PERFT:
        perft_divide(&main_thread(e)->pos, e->job_depth, write_line, e, &e->ctl.stop);
        break;
    case JOB_BENCH:
        bench_run(e->job_depth, bench_hash_mb(e), e->use_nnue && e->net.memory ? &e->net : NULL, write_line, e, &e->ctl);
        break;
    }
}

static void *job_thread_main(void *arg)
{
    Engine *e = arg;
    run_job(e);
    atomic_store(&e->finished, true);
    return NULL;
}

// Waits for a running job to end; stop_it tells it to stop first (a search then prints
// its bestmove at once).
static void wait_for_search(Engine *e, bool stop_it)
{
    if (!e->searching)
        return;
    if (stop_it)
        atomic_store(&e->ctl.stop, true);
    pthread_join(e->handle, NULL);
    e->searching = false;
}

// Loads the tables of a SyzygyPath value and says what was found.
static void set_tb_path(Engine *e, const char *path)
{
    int n_wdl, n_dtz;
    int largest = tb_set_path(e->tb, path, &n_wdl, &n_dtz);
    if (!*path || !strcmp(path, "<empty>"))
        debug_say(e, "SyzygyPath cleared");
    else if (n_wdl + n_dtz == 0)
        say(e, "info string Syzygy: no tables found in '%s'", path);
    else
        say(e, "info string Syzygy: %d WDL and %d DTZ tables found, up to %d pieces", n_wdl, n_dtz, largest);
}

static void apply_pending(Engine *e)
{
    if (e->searching)
        return;
    if (e->pending_hash_mb) {
        if (tt_resize(&e->tt, e->pending_hash_mb))
            e->hash_mb = e->pending_hash_mb;
        else
            say(e, "info string cannot allocate %zu MB for Hash, keeping %zu MB", e->pending_hash_mb, e->hash_mb);
        e->pending_hash_mb = 0;
    }
    if (e->pending_net.memory) {
        nnue_free(&e->net);
        e->net = e->pending_net;
        memset(&e->pending_net, 0, sizeof e->pending_net);
    }
    if (e->pending_threads) {
        if (!pool_resize(e->pool, e->pending_threads))
            say(e, "info string cannot start %d threads, searching with %d", e->pending_threads, pool_size(e->pool));
        e->threads = pool_size(e->pool);
        e->pending_threads = 0;
    }
    if (e->pending_tb_path) {
        set_tb_path(e, e->pending_tb_path);
        free(e->pending_tb_path);
        e->pending_tb_path = NULL;
    }
    if (e->pending_clear) {
        tt_clear(&e->tt);
        for (int i = 0; i < pool_size(e->pool); i++)
            search_clear(pool_thread(e->pool, i));
        e->pending_clear = false;
    }
}

// Makes room for a new job: the running one, if any, is stopped (a search prints its
// bestmove), joined, and deferred option changes are applied.
static void stop_running_job(Engine *e, const char *why)
{
    if (e->searching && !atomic_load(&e->finished))
        debug_say(e, "%s during a running job: stopping it first", why);
    wait_for_search(e, true);
    apply_pending(e);
}

// Starts e->job on the job thread with the control flags reset. Without a thread the job
// runs here: a search limited to depth 1, or the perft or bench asked for.
static void start_job(Engine *e, JobKind job, bool pondering)
{
    e->job = job;
    atomic_store(&e->ctl.stop, false);
    atomic_store(&e->ctl.pondering, pondering);
    atomic_store(&e->ctl.start_ms, tm_now());
    atomic_store(&e->finished, false);
    if (pthread_create(&e->handle, NULL, job_thread_main, e) == 0) {
        e->searching = true;
        return;
    }
    if (job == JOB_SEARCH) {
        say(e, "info string cannot start a search thread; searching to depth 1");
        main_thread(e)->limits.infinite = false;
        main_thread(e)->limits.depth = 1;
        atomic_store(&e->ctl.pondering, false);
    } else {
        say(e, "info string cannot start a thread; running here");
    }
    run_job(e);
}

// Joins a search that has already printed bestmove, then applies deferred changes.
static void reap_finished(Engine *e)
{
    if (e->searching && atomic_load(&e->finished))
        wait_for_search(e, false);
    apply_pending(e);
}

/* ---------------------------------------------------------------- parsing helpers */

// Parses a whole token as a signed integer; false if it is not one.
static bool parse_int(const char *s, int64_t *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno == ERANGE)
        return false;
    *out = v;
    return true;
}

static int clamp_int(int64_t v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : (int)v; }

static const char *const GO_KEYWORDS[] = {"searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo",
                                          "depth", "nodes", "mate", "movetime", "infinite", "perft", NULL};

static bool is_go_keyword(const char *s)
{
    for (int i = 0; GO_KEYWORDS[i]; i++)
        if (!strcmp(s, GO_KEYWORDS[i]))
            return true;
    return false;
}

/* ---------------------------------------------------------------- commands */

static void cmd_uci(Engine *e)
{
    say(e, "id name Outpost " OUTPOST_VERSION);
    say(e, "id author the Outpost developers");
    say(e, "option name Hash type spin default 16 min 1 max %d", HASH_MAX_MB);
    say(e, "option name Threads type spin default 1 min 1 max 256");
    say(e, "option name MultiPV type spin default 1 min 1 max 256");
    say(e, "option name Move Overhead type spin default 10 min 0 max 5000");
    say(e, "option name Ponder type check default false");
    say(e, "option name Clear Hash type button");
    say(e, "option name UCI_Chess960 type check default false");
    say(e, "option name UCI_ShowWDL type check default false");
    // With a built-in network it is the default evaluation.
    say(e, "option name EvalFile type string default %s", nnue_has_embedded() ? "<embedded>" : "<empty>");
    say(e, "option name Use NNUE type check default %s", nnue_has_embedded() ? "true" : "false");
    say(e, "option name UCI_LimitStrength type check default false");
    say(e, "option name UCI_Elo type spin default 1500 min %d max %d", STRENGTH_MIN_ELO, STRENGTH_MAX_ELO);
    say(e, "option name OwnBook type check default false");
    say(e, "option name BookFile type string default <empty>");
    say(e, "option name BookBestMove type check default false");
    say(e, "option name SyzygyPath type string default <empty>");
    say(e, "option name SyzygyProbeDepth type spin default 1 min 1 max 100");
    say(e, "option name Syzygy50MoveRule type check default true");
    say(e, "option name SyzygyProbeLimit type spin default %d min 0 max %d", TB_MAX_PIECES, TB_MAX_PIECES);
    say(e, "uciok");
}

static bool parse_bool(const char *v, bool *out)
{
    if (v && !strcasecmp(v, "true"))
        *out = true;
    else if (v && !strcasecmp(v, "false"))
        *out = false;
    else
        return false;
    return true;
}

// raw: the text after `value` exactly as sent (for file names with spaces), or NULL.
static void cmd_setoption(Engine *e, char **tok, int n, const char *raw)
{
    // setoption name <words> [value <words>]
    char name[256] = "", value[256] = "";
    int i = 1;
    if (i >= n || strcmp(tok[i], "name")) {
        say(e, "info string setoption needs 'name'");
        return;
    }
    for (i++; i < n && strcmp(tok[i], "value"); i++) {
        if (*name)
            strncat(name, " ", sizeof name - strlen(name) - 1);
        strncat(name, tok[i], sizeof name - strlen(name) - 1);
    }
    bool has_value = i < n;
    for (i++; i < n; i++) {
        if (*value)
            strncat(value, " ", sizeof value - strlen(value) - 1);
        strncat(value, tok[i], sizeof value - strlen(value) - 1);
    }
    int64_t num = 0;
    bool is_num = parse_int(value, &num);
    bool flag;

    if (!strcasecmp(name, "Hash")) {
        if (!is_num || num < 1 || num > HASH_MAX_MB) {
            say(e, "info string Hash must be an integer from 1 to %d, not '%s'", HASH_MAX_MB, value);
            return;
        }
        e->pending_hash_mb = (size_t)num;
        if (e->caps.max_hash_mb && e->pending_hash_mb > e->caps.max_hash_mb)
            e->pending_hash_mb = e->caps.max_hash_mb;
        reap_finished(e);
    } else if (!strcasecmp(name, "Threads")) {
        if (!is_num || num < 1 || num > 256) {
            say(e, "info string Threads must be an integer from 1 to 256, not '%s'", value);
            return;
        }
        e->pending_threads = e->caps.max_threads && num > e->caps.max_threads ? e->caps.max_threads : (int)num;
        reap_finished(e);
    } else if (!strcasecmp(name, "MultiPV")) {
        if (!is_num || num < 1 || num > 256) {
            say(e, "info string MultiPV must be an integer from 1 to 256, not '%s'", value);
            return;
        }
        e->multipv = (int)num;
    } else if (!strcasecmp(name, "Move Overhead")) {
        if (!is_num || num < 0 || num > 5000) {
            say(e, "info string Move Overhead must be an integer from 0 to 5000, not '%s'", value);
            return;
        }
        e->move_overhead = num;
    } else if (!strcasecmp(name, "Clear Hash")) {
        e->pending_clear = true;
        reap_finished(e);
    } else if (!strcasecmp(name, "BookFile")) {
        book_close(&e->book);
        if (!raw || !*raw || !strcmp(raw, "<empty>")) {
            debug_say(e, "BookFile cleared");
            return;
        }
        char err[512];
        if (!book_open(&e->book, raw, err, sizeof err)) {
            say(e, "info string %s; book off", err);
            return;
        }
        say(e, "info string book '%s': %llu entries", raw, (unsigned long long)e->book.entries);
    } else if (!strcasecmp(name, "SyzygyPath")) {
        // Tables in use by a search are replaced only after it.
        const char *path = raw ? raw : "";
        free(e->pending_tb_path);
        e->pending_tb_path = malloc(strlen(path) + 1);
        if (!e->pending_tb_path) {
            say(e, "info string out of memory for SyzygyPath; the tables stay");
            return;
        }
        strcpy(e->pending_tb_path, path);
        if (e->searching && !atomic_load(&e->finished))
            say(e, "info string SyzygyPath: in use from the next search");
        reap_finished(e);
    } else if (!strcasecmp(name, "SyzygyProbeDepth") || !strcasecmp(name, "SyzygyProbeLimit")) {
        bool depth = !strcasecmp(name, "SyzygyProbeDepth");
        int lo = depth ? 1 : 0, hi = depth ? 100 : TB_MAX_PIECES;
        if (!is_num || num < lo || num > hi) {
            say(e, "info string %s must be an integer from %d to %d, not '%s'", name, lo, hi, value);
            return;
        }
        if (depth)
            e->tb_probe_depth = (int)num;
        else
            e->tb_probe_limit = (int)num;
    } else if (!strcasecmp(name, "EvalFile")) {
        if (!raw || !*raw || !strcmp(raw, "<empty>")) {
            say(e, "info string EvalFile needs a network file; the current network stays");
            return;
        }
        char err[512];
        Nnue loaded = {0};
        bool embedded = !strcmp(raw, "<embedded>");
        if (embedded ? !nnue_load_embedded(&loaded, err, sizeof err) : !nnue_load(&loaded, raw, err, sizeof err)) {
            say(e, "info string %s; the current network stays", err);
            return;
        }
        nnue_free(&e->pending_net);
        e->pending_net = loaded;
        e->pending_clear = true; // the TT holds the old evaluation's scores
        char buckets[32] = "";
        if (loaded.buckets > 1)
            snprintf(buckets, sizeof buckets, ", %d output buckets", loaded.buckets);
        say(e, "info string network '%s': (768 -> %d) x 2 -> 1%s%s", raw, loaded.hidden, buckets,
            e->searching ? ", in use from the next search" : "");
        reap_finished(e);
    } else if (!strcasecmp(name, "Use NNUE")) {
        if (!has_value || !parse_bool(value, &flag)) {
            say(e, "info string %s needs value true or false, not '%s'", name, value);
            return;
        }
        if (flag != e->use_nnue) {
            e->use_nnue = flag;
            e->pending_clear = true; // the TT holds the other evaluation's scores
            reap_finished(e);
        }
        if (flag && !e->net.memory && !e->pending_net.memory)
            say(e, "info string Use NNUE: no network loaded (set EvalFile); the hand-written evaluation is used");
    } else if (!strcasecmp(name, "UCI_Elo")) {
        if (!is_num || num < STRENGTH_MIN_ELO || num > STRENGTH_MAX_ELO) {
            say(e, "info string UCI_Elo must be an integer from %d to %d, not '%s'", STRENGTH_MIN_ELO,
                STRENGTH_MAX_ELO, value);
            return;
        }
        e->elo = (int)num;
    } else if (!strcasecmp(name, "UCI_LimitStrength")) {
        if (!has_value || !parse_bool(value, &flag)) {
            say(e, "info string %s needs value true or false, not '%s'", name, value);
            return;
        }
        if (flag != e->limit_strength && e->use_nnue) {
            e->pending_clear = true; // limited games use the hand-written evaluation
            reap_finished(e);
        }
        e->limit_strength = flag;
    } else if (!strcasecmp(name, "OwnBook") || !strcasecmp(name, "BookBestMove")) {
        if (!has_value || !parse_bool(value, &flag)) {
            say(e, "info string %s needs value true or false, not '%s'", name, value);
            return;
        }
        if (!strcasecmp(name, "OwnBook"))
            e->own_book = flag;
        else
            e->book_best = flag;
    } else if (!strcasecmp(name, "Ponder") || !strcasecmp(name, "UCI_Chess960") || !strcasecmp(name, "UCI_ShowWDL")
               || !strcasecmp(name, "Syzygy50MoveRule")) {
        if (!has_value || !parse_bool(value, &flag)) {
            say(e, "info string %s needs value true or false, not '%s'", name, value);
            return;
        }
        if (!strcasecmp(name, "Ponder"))
            e->ponder = flag;
        else if (!strcasecmp(name, "UCI_ShowWDL"))
            e->show_wdl = flag;
        else if (!strcasecmp(name, "Syzygy50MoveRule"))
            e->tb_rule50 = flag;
        else {
            // The option decides the notation of the current position too, even one set
            // up from a FEN that needed Chess960 castling.
            e->chess960 = flag;
            e->pos.chess960 = flag;
        }
        debug_say(e, "%s set to %s", name, flag ? "true" : "false");
    } else {
        say(e, "info string unknown option '%s'", name);
    }
}

static void cmd_position(Engine *e, char **tok, int n)
{
    static Position next; // large: kept off the stack
    char err[160];
    int i = 1;
    if (i < n && !strcmp(tok[i], "startpos")) {
        pos_set_fen(&next, START_FEN, e->chess960, err, sizeof err);
        i++;
    } else if (i < n && !strcmp(tok[i], "fen")) {
        char fen[512] = "";
        for (i++; i < n && strcmp(tok[i], "moves"); i++) {
            if (strlen(fen) + strlen(tok[i]) + 2 >= sizeof fen)
                break;
            if (*fen)
                strcat(fen, " ");
            strcat(fen, tok[i]);
        }
        if (!pos_set_fen(&next, fen, e->chess960, err, sizeof err)) {
            say(e, "info string invalid FEN (%s); position unchanged", err);
            return;
        }
        while (i < n && strcmp(tok[i], "moves"))
            i++;
    } else {
        say(e, "info string position needs 'startpos' or 'fen'; position unchanged");
        return;
    }
    if (i < n && !strcmp(tok[i], "moves")) {
        for (i++; i < n; i++) {
            Move m = move_from_uci(&next, tok[i]);
            if (m == MOVE_NONE) {
                say(e, "info string illegal or unknown move '%.16s'; moves list stops before it", tok[i]);
                break;
            }
            pos_make_move(&next, m);
            pos_trim_history(&next);
        }
    } else if (i < n) {
        say(e, "info string unexpected '%.32s' in position command", tok[i]);
    }
    memcpy(&e->pos, &next, offsetof(Position, states) + (size_t)(next.st_index + 1) * sizeof(StateInfo));
    if (e->debug) {
        char fen[FEN_MAX];
        pos_to_fen(&e->pos, fen);
        debug_say(e, "position %s", fen);
    }
}

// Answers a go from the book when OwnBook is on and the position is in it; never for
// go infinite, go ponder, searchmoves, MultiPV > 1 or Chess960. True if it answered.
static bool play_from_book(Engine *e, const SearchLimits *limits, const SearchOptions *opts)
{
    if (!e->own_book || !e->book.f || limits->infinite || limits->ponder || opts->n_searchmoves || e->multipv > 1
        || e->pos.chess960 || e->chess960)
        return false;
    BookMove moves[BOOK_MAX_MOVES];
    int n = book_probe(&e->book, &e->pos, moves);
    if (n == 0)
        return false;
    Move m = book_choose(moves, n, e->book_best, rng_next(&e->rng));
    int weight = 0, total = 0;
    for (int i = 0; i < n; i++) {
        total += moves[i].weight;
        weight = moves[i].move == m ? moves[i].weight : weight;
    }
    char mv[MOVE_STR_MAX];
    move_to_uci(m, false, mv);
    say(e, "info string book move %s (weight %d of %d, %d moves)", mv, weight, total, n);
    say(e, "bestmove %s", mv);
    return true;
}

static void cmd_go(Engine *e, char **tok, int n)
{
    SearchLimits limits;
    limits_init(&limits);
    SearchOptions opts = {.multipv = e->multipv, .show_wdl = e->show_wdl, .move_overhead = e->move_overhead,
                          .print_bestmove = true};
    int perft_depth = -1;
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        if (!strcmp(k, "infinite")) {
            limits.infinite = true;
        } else if (!strcmp(k, "ponder")) {
            limits.ponder = true;
        } else if (!strcmp(k, "searchmoves")) {
            for (; i + 1 < n && !is_go_keyword(tok[i + 1]); i++) {
                Move m = move_from_uci(&e->pos, tok[i + 1]);
                if (m != MOVE_NONE && opts.n_searchmoves < MAX_MOVES)
                    opts.searchmoves[opts.n_searchmoves++] = m;
                else
                    say(e, "info string searchmoves: '%.16s' is not a legal move, skipped", tok[i + 1]);
            }
        } else if (is_go_keyword(k)) {
            int64_t v;
            if (i + 1 >= n || !parse_int(tok[i + 1], &v)) {
                say(e, "info string go %s needs an integer value; ignored", k);
                continue;
            }
            i++;
            // Clock values are clamped here, so that no later arithmetic can overflow.
            if (!strcmp(k, "wtime")) limits.time[WHITE] = tm_clamp(v);
            else if (!strcmp(k, "btime")) limits.time[BLACK] = tm_clamp(v);
            else if (!strcmp(k, "winc")) limits.inc[WHITE] = tm_clamp(v);
            else if (!strcmp(k, "binc")) limits.inc[BLACK] = tm_clamp(v);
            else if (!strcmp(k, "movestogo")) limits.movestogo = clamp_int(v, 0, 10000);
            else if (!strcmp(k, "depth")) limits.depth = clamp_int(v, 1, MAX_PLY - 1);
            else if (!strcmp(k, "mate")) limits.mate = clamp_int(v, 1, MAX_PLY / 2);
            else if (!strcmp(k, "movetime")) limits.movetime = v < 1 ? 1 : tm_clamp(v);
            else if (!strcmp(k, "nodes")) limits.nodes = v < 1 ? 1 : (uint64_t)v;
            else if (!strcmp(k, "perft")) {
                int max = perft_max_depth(&e->pos);
                if (e->caps.max_perft_depth && max > e->caps.max_perft_depth)
                    max = e->caps.max_perft_depth;
                if (v < 0 || v > max) {
                    say(e, "info string go perft depth must be from 0 to %d, not %" PRId64 "; ignored", max, v);
                    return;
                }
                perft_depth = (int)v;
            }
        } else {
            say(e, "info string go: unknown token '%.32s' ignored", k);
        }
    }

    // Only one job at a time: a go that arrives during one stops it (a search answers
    // with its bestmove) and then starts.
    stop_running_job(e, "go");
    if (perft_depth < 0 && play_from_book(e, &limits, &opts))
        return;
    SearchThread *t = main_thread(e);
    memcpy(&t->pos, &e->pos, offsetof(Position, states) + (size_t)(e->pos.st_index + 1) * sizeof(StateInfo));
    t->pos.chess960 = e->pos.chess960 || e->chess960;
    if (perft_depth >= 0) {
        e->unbounded = false;
        e->job_depth = perft_depth;
        start_job(e, JOB_PERFT, false);
        return;
    }

    if (e->caps.max_nodes && (!limits.nodes || limits.nodes > e->caps.max_nodes))
        limits.nodes = e->caps.max_nodes;
    // UCI_LimitStrength weakens every go with a clock or a movetime (not analysis). Its
    // levels were calibrated with the hand-written evaluation, so they play with it.
    bool clock = limits.time[WHITE] != TIME_NONE || limits.time[BLACK] != TIME_NONE || limits.movetime >= 0;
    bool limited = e->limit_strength && clock && !limits.infinite;
    if (limited) {
        opts.limit_elo = e->elo;
        opts.seed = rng_next(&e->rng);
    }
    if (tb_largest(e->tb) > 0) {
        opts.tb = e->tb;
        opts.tb_limit = e->tb_probe_limit < tb_largest(e->tb) ? e->tb_probe_limit : tb_largest(e->tb);
        opts.tb_probe_depth = e->tb_probe_depth;
        opts.tb_rule50 = e->tb_rule50;
    }
    t->limits = limits;
    t->opts = opts;
    t->nnue = e->use_nnue && e->net.memory && !limited ? &e->net : NULL;
    t->tt = &e->tt;
    t->ctl = &e->ctl;
    t->out = write_line;
    t->out_ctx = e;
    TimeBudget budget = tm_budget(&limits, e->pos.side, e->move_overhead);
    e->unbounded = limits.infinite || (!limits.depth && !limits.nodes && budget.hard_ms == INT64_MAX);
    if (e->debug) {
        if (budget.hard_ms == INT64_MAX)
            debug_say(e, "go: no time limit%s", limits.ponder ? " (pondering)" : "");
        else
            debug_say(e, "go: soft limit %" PRId64 " ms, hard limit %" PRId64 " ms%s", budget.soft_ms, budget.hard_ms,
                      limits.ponder ? " from ponderhit" : "");
        debug_say(e, "go: %s evaluation%s", t->nnue ? "network" : "hand-written",
                  limited ? " (UCI_LimitStrength)" : "");
    }
    start_job(e, JOB_SEARCH, limits.ponder);
}

static void cmd_ponderhit(Engine *e)
{
    if (!e->searching || !atomic_load(&e->ctl.pondering))
        return;
    // The clock limits given with `go ponder` start counting now.
    atomic_store(&e->ctl.start_ms, tm_now());
    atomic_store(&e->ctl.pondering, false);
}

// Splits line into whitespace-separated tokens in place; returns their number, or -1 if
// the line holds more than max tokens.
static int tokenize(char *line, char **tok, int max)
{
    int n = 0;
    for (char *p = line;;) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        if (n == max)
            return -1;
        tok[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
    return n;
}

// Handles one line; returns false on quit.
// The text after the first token `value` of a setoption line, without the line end and
// the blanks around it; NULL when there is none. Written into out (of size size).
static const char *option_value(const char *line, char *out, size_t size)
{
    const char *p = line;
    for (;;) {
        p = strstr(p, "value");
        if (!p)
            return NULL;
        bool starts = p == line || isspace((unsigned char)p[-1]);
        bool ends = !p[5] || isspace((unsigned char)p[5]);
        if (starts && ends)
            break;
        p += 5;
    }
    p += 5;
    while (*p && isspace((unsigned char)*p))
        p++;
    size_t len = strlen(p);
    while (len && isspace((unsigned char)p[len - 1]))
        len--;
    if (len >= size)
        len = size - 1;
    memcpy(out, p, len);
    out[len] = '\0';
    return out;
}

static bool handle_line(Engine *e, char *line, char **tok)
{
    static char raw[4096];
    const char *start = line;
    while (isspace((unsigned char)*start))
        start++;
    const char *value = strncmp(start, "setoption", 9) ? NULL : option_value(start, raw, sizeof raw);
    int n = tokenize(line, tok, MAX_TOKENS);
    if (n < 0) {
        say(e, "info string line of more than %d tokens ignored", MAX_TOKENS);
        return true;
    }
    if (n == 0)
        return true;
    const char *cmd = tok[0];
    if (!strcmp(cmd, "uci"))
        cmd_uci(e);
    else if (!strcmp(cmd, "isready")) {
        reap_finished(e);
        say(e, "readyok");
    } else if (!strcmp(cmd, "debug")) {
        if (n == 2 && (!strcmp(tok[1], "on") || !strcmp(tok[1], "off"))) {
            e->debug = !strcmp(tok[1], "on");
            debug_say(e, "debug mode on");
        } else {
            say(e, "info string debug needs 'on' or 'off'");
        }
    }
    else if (!strcmp(cmd, "setoption"))
        cmd_setoption(e, tok, n, value);
    else if (!strcmp(cmd, "ucinewgame")) {
        e->pending_clear = true;
        reap_finished(e);
    } else if (!strcmp(cmd, "position"))
        cmd_position(e, tok, n);
    else if (!strcmp(cmd, "go"))
        cmd_go(e, tok, n);
    else if (!strcmp(cmd, "stop")) {
        if (e->searching)
            atomic_store(&e->ctl.stop, true);
    } else if (!strcmp(cmd, "ponderhit"))
        cmd_ponderhit(e);
    else if (!strcmp(cmd, "quit"))
        return false;
    else if (!strcmp(cmd, "bench")) {
        int max = e->caps.max_perft_depth ? e->caps.max_perft_depth : 64;
        int64_t depth = BENCH_DEFAULT_DEPTH < max ? BENCH_DEFAULT_DEPTH : max;
        if (n > 1 && (!parse_int(tok[1], &depth) || depth < 1 || depth > max)) {
            say(e, "info string bench depth must be from 1 to %d, not '%.32s'", max, tok[1]);
            return true;
        }
        stop_running_job(e, "bench");
        e->unbounded = false;
        e->job_depth = (int)depth;
        start_job(e, JOB_BENCH, false);
    } else if (!strcmp(cmd, "d")) {
        char fen[FEN_MAX];
        pos_to_fen(&e->pos, fen);
        say(e, "info string fen %s key %016" PRIx64, fen, pos_key(&e->pos));
    } else
        say(e, "info string unknown command '%.64s'", cmd);
    return true;
}

int uci_loop(FILE *in, FILE *out)
{
    static const UciCaps NO_CAPS = {0};
    return uci_loop_capped(in, out, &NO_CAPS);
}

int uci_loop_capped(FILE *in, FILE *out, const UciCaps *caps)
{
    static Engine engine; // large (it holds a Position): kept off the stack
    Engine *e = &engine;
    memset(e, 0, sizeof *e);
    e->caps = *caps;
    e->out = out;
    pthread_mutex_init(&e->out_lock, NULL);
    e->hash_mb = caps->max_hash_mb && caps->max_hash_mb < 16 ? caps->max_hash_mb : 16;
    e->threads = 1;
    e->multipv = 1;
    e->move_overhead = 10;
    e->elo = 1500;
    e->tb_probe_depth = 1;
    e->tb_probe_limit = TB_MAX_PIECES;
    e->tb_rule50 = true;
    e->tb = tb_create(write_line, e);
    e->pool = pool_create(search_init);
    char **tok = malloc(MAX_TOKENS * sizeof *tok);
    if (!e->pool || !e->tb || !tok || !tt_resize(&e->tt, e->hash_mb)) {
        fprintf(out, "info string out of memory at start-up\n");
        return 1;
    }
    e->rng = (uint64_t)tm_now() ^ (uint64_t)(uintptr_t)e;
    if (nnue_has_embedded()) { // the built-in network is the default evaluation
        char net_err[256];
        e->use_nnue = nnue_load_embedded(&e->net, net_err, sizeof net_err);
        if (!e->use_nnue)
            fprintf(out, "info string %s; the hand-written evaluation is used\n", net_err);
    }
    char err[64];
    pos_set_fen(&e->pos, START_FEN, false, err, sizeof err);

    char *line = NULL;
    size_t cap = 0;
    long len;
    bool quit = false;
    while (!quit && (len = platform_read_line(&line, &cap, in)) >= 0) {
        (void)len; // an embedded NUL simply ends the line early
        quit = !handle_line(e, line, tok);
    }
    // On quit, stop at once; at end of input let a bounded search finish and answer.
    bool unbounded = e->searching && (e->unbounded || atomic_load(&e->ctl.pondering));
    wait_for_search(e, quit || unbounded);
    free(line);
    free(tok);
    tt_free(&e->tt);
    book_close(&e->book);
    pool_destroy(e->pool);
    tb_free(e->tb);
    free(e->pending_tb_path);
    nnue_free(&e->net);
    nnue_free(&e->pending_net);
    pthread_mutex_destroy(&e->out_lock);
    return 0;
}
