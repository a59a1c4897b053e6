// SPDX-License-Identifier: MIT
// The UCI protocol: reads lines, splits them into commands and answers them; long
// commands go to the job thread (job.c), option changes to the options table (options.c).
#define _POSIX_C_SOURCE 200809L
#include "uci.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "job.h"
#include "move.h"
#include "options.h"
#include "perft.h"
#include "platform.h"
#include "rng.h"
#include "version.h"

enum { MAX_TOKENS = 16384 };

/* ---------------------------------------------------------------- parsing helpers */

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
    engine_say(e, "id name Outpost " OUTPOST_FULL_VERSION);
    engine_say(e, "id author the Outpost developers");
    options_print(e);
    engine_say(e, "uciok");
}

// raw: the text after `value` exactly as sent (for file names with spaces), or NULL.
static void cmd_setoption(Engine *e, char **tok, int n, const char *raw)
{
    // setoption name <words> [value <words>]
    char name[256] = "", value[256] = "";
    int i = 1;
    if (i >= n || strcmp(tok[i], "name")) {
        engine_say(e, "info string setoption needs 'name'");
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
    options_set(e, name, has_value, value, raw);
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
            engine_say(e, "info string invalid FEN (%s); position unchanged", err);
            return;
        }
        while (i < n && strcmp(tok[i], "moves"))
            i++;
    } else {
        engine_say(e, "info string position needs 'startpos' or 'fen'; position unchanged");
        return;
    }
    if (i < n && !strcmp(tok[i], "moves")) {
        for (i++; i < n; i++) {
            Move m = move_from_uci(&next, tok[i]);
            if (m == MOVE_NONE) {
                engine_say(e, "info string illegal or unknown move '%.16s'; moves list stops before it", tok[i]);
                break;
            }
            pos_make_move(&next, m);
            pos_trim_history(&next);
        }
    } else if (i < n) {
        engine_say(e, "info string unexpected '%.32s' in position command", tok[i]);
    }
    memcpy(&e->pos, &next, offsetof(Position, states) + (size_t)(next.st_index + 1) * sizeof(StateInfo));
    if (e->debug) {
        char fen[FEN_MAX];
        pos_to_fen(&e->pos, fen);
        engine_debug(e, "position %s", fen);
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
    engine_say(e, "info string book move %s (weight %d of %d, %d moves)", mv, weight, total, n);
    engine_say(e, "bestmove %s", mv);
    return true;
}

// Reads go's arguments into limits, the searchmoves into opts and a `perft N` depth into
// *perft_depth (-1 without one). False when the command is to be ignored (a perft depth
// out of range, already answered).
static bool parse_go(Engine *e, char **tok, int n, SearchLimits *lim, SearchOptions *opts, int *perft_depth)
{
    SearchLimits limits;
    limits_init(&limits);
    *perft_depth = -1;
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        if (!strcmp(k, "infinite")) {
            limits.infinite = true;
        } else if (!strcmp(k, "ponder")) {
            limits.ponder = true;
        } else if (!strcmp(k, "searchmoves")) {
            for (; i + 1 < n && !is_go_keyword(tok[i + 1]); i++) {
                Move m = move_from_uci(&e->pos, tok[i + 1]);
                if (m != MOVE_NONE && opts->n_searchmoves < MAX_MOVES)
                    opts->searchmoves[opts->n_searchmoves++] = m;
                else
                    engine_say(e, "info string searchmoves: '%.16s' is not a legal move, skipped", tok[i + 1]);
            }
        } else if (is_go_keyword(k)) {
            int64_t v;
            if (i + 1 >= n || !engine_parse_int(tok[i + 1], &v)) {
                engine_say(e, "info string go %s needs an integer value; ignored", k);
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
                    engine_say(e, "info string go perft depth must be from 0 to %d, not %" PRId64 "; ignored", max, v);
                    return false;
                }
                *perft_depth = (int)v;
            }
        } else {
            engine_say(e, "info string go: unknown token '%.32s' ignored", k);
        }
    }
    *lim = limits;
    return true;
}

static void cmd_go(Engine *e, char **tok, int n)
{
    SearchLimits limits;
    SearchOptions opts = {.multipv = e->multipv, .show_wdl = e->show_wdl, .move_overhead = e->move_overhead,
                          .print_bestmove = true};
    int perft_depth;
    if (!parse_go(e, tok, n, &limits, &opts, &perft_depth))
        return;

    // Only one job at a time: a go that arrives during one stops it (a search answers
    // with its bestmove) and then starts.
    job_stop_running(e, "go");
    if (perft_depth < 0 && play_from_book(e, &limits, &opts))
        return;
    SearchThread *t = engine_main_thread(e);
    memcpy(&t->pos, &e->pos, offsetof(Position, states) + (size_t)(e->pos.st_index + 1) * sizeof(StateInfo));
    t->pos.chess960 = e->pos.chess960 || e->chess960;
    if (perft_depth >= 0) {
        e->unbounded = false;
        e->job_depth = perft_depth;
        job_start(e, JOB_PERFT, false);
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
    t->params = e->params;
    t->nnue = e->use_nnue && e->net.memory && !limited ? &e->net : NULL;
    t->tt = &e->tt;
    t->ctl = &e->ctl;
    t->out = engine_write_line;
    t->out_ctx = e;
    TimeBudget budget = tm_budget(&limits, e->pos.side, e->move_overhead);
    e->unbounded = limits.infinite || (!limits.depth && !limits.nodes && budget.hard_ms == INT64_MAX);
    if (e->debug) {
        if (budget.hard_ms == INT64_MAX)
            engine_debug(e, "go: no time limit%s", limits.ponder ? " (pondering)" : "");
        else
            engine_debug(e, "go: soft limit %" PRId64 " ms, hard limit %" PRId64 " ms%s", budget.soft_ms, budget.hard_ms,
                      limits.ponder ? " from ponderhit" : "");
        engine_debug(e, "go: %s evaluation%s", t->nnue ? "network" : "hand-written",
                  limited ? " (UCI_LimitStrength)" : "");
    }
    job_start(e, JOB_SEARCH, limits.ponder);
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
        engine_say(e, "info string line of more than %d tokens ignored", MAX_TOKENS);
        return true;
    }
    if (n == 0)
        return true;
    const char *cmd = tok[0];
    if (!strcmp(cmd, "uci"))
        cmd_uci(e);
    else if (!strcmp(cmd, "isready")) {
        job_reap_finished(e);
        engine_say(e, "readyok");
    } else if (!strcmp(cmd, "debug")) {
        if (n == 2 && (!strcmp(tok[1], "on") || !strcmp(tok[1], "off"))) {
            e->debug = !strcmp(tok[1], "on");
            engine_debug(e, "debug mode on");
        } else {
            engine_say(e, "info string debug needs 'on' or 'off'");
        }
    }
    else if (!strcmp(cmd, "setoption"))
        cmd_setoption(e, tok, n, value);
    else if (!strcmp(cmd, "ucinewgame")) {
        e->pending_clear = true;
        job_reap_finished(e);
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
        if (n > 1 && (!engine_parse_int(tok[1], &depth) || depth < 1 || depth > max)) {
            engine_say(e, "info string bench depth must be from 1 to %d, not '%.32s'", max, tok[1]);
            return true;
        }
        job_stop_running(e, "bench");
        e->unbounded = false;
        e->job_depth = (int)depth;
        job_start(e, JOB_BENCH, false);
    } else if (!strcmp(cmd, "d")) {
        char fen[FEN_MAX];
        pos_to_fen(&e->pos, fen);
        engine_say(e, "info string fen %s key %016" PRIx64, fen, pos_key(&e->pos));
    } else
        engine_say(e, "info string unknown command '%.64s'", cmd);
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
    e->params = (SearchParams)SEARCH_PARAMS_DEFAULT;
    e->tb = tb_create(engine_write_line, e);
    e->pool = pool_create(search_init);
    char **tok = malloc(MAX_TOKENS * sizeof *tok);
    if (!e->pool || !e->tb || !tok || !options_init(e)) {
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
    job_wait(e, quit || unbounded);
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
