// SPDX-License-Identifier: MIT
// The table of UCI options and the functions that apply them. An option whose change
// would touch the TT, the threads or the tables of a running search is recorded in the
// Engine's pending fields and applied by job.c once no search runs.
#include "options.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job.h"
#include "strength.h"

enum { HASH_MAX_MB = 65536 };

typedef enum { OPT_SPIN, OPT_CHECK, OPT_STRING, OPT_BUTTON } OptionType;

// What an apply function is given: num for spin and check (0 or 1) options, already
// checked against the range; raw for string options (NULL when no value was sent).
typedef struct {
    int64_t num;
    const char *raw;
} OptionValue;

typedef struct {
    const char *name;
    OptionType type;
    int64_t def;          // spin and check (0 or 1)
    int64_t min, max;     // spin
    const char *def_text; // string: the default as `uci` shows it
    bool net_default;     // check or string: the default says whether a network is built in
    void (*apply)(Engine *e, const OptionValue *v);
} Option;

static void set_hash(Engine *e, const OptionValue *v)
{
    e->pending_hash_mb = (size_t)v->num;
    if (e->caps.max_hash_mb && e->pending_hash_mb > e->caps.max_hash_mb)
        e->pending_hash_mb = e->caps.max_hash_mb;
    job_reap_finished(e);
}

static void set_threads(Engine *e, const OptionValue *v)
{
    e->pending_threads = e->caps.max_threads && v->num > e->caps.max_threads ? e->caps.max_threads : (int)v->num;
    job_reap_finished(e);
}

static void set_multipv(Engine *e, const OptionValue *v) { e->multipv = (int)v->num; }
static void set_overhead(Engine *e, const OptionValue *v) { e->move_overhead = v->num; }
static void set_ponder(Engine *e, const OptionValue *v) { e->ponder = v->num; }
static void set_show_wdl(Engine *e, const OptionValue *v) { e->show_wdl = v->num; }
static void set_elo(Engine *e, const OptionValue *v) { e->elo = (int)v->num; }
static void set_own_book(Engine *e, const OptionValue *v) { e->own_book = v->num; }
static void set_book_best(Engine *e, const OptionValue *v) { e->book_best = v->num; }
static void set_probe_depth(Engine *e, const OptionValue *v) { e->tb_probe_depth = (int)v->num; }
static void set_probe_limit(Engine *e, const OptionValue *v) { e->tb_probe_limit = (int)v->num; }
static void set_rule50(Engine *e, const OptionValue *v) { e->tb_rule50 = v->num; }

static void clear_hash(Engine *e, const OptionValue *v)
{
    (void)v;
    e->pending_clear = true;
    job_reap_finished(e);
}

// The option decides the notation of the current position too, even one set up from a
// FEN that needed Chess960 castling.
static void set_chess960(Engine *e, const OptionValue *v)
{
    e->chess960 = v->num;
    e->pos.chess960 = v->num;
}

static void set_eval_file(Engine *e, const OptionValue *v)
{
    const char *raw = v->raw;
    if (!raw || !*raw || !strcmp(raw, "<empty>")) {
        engine_say(e, "info string EvalFile needs a network file; the current network stays");
        return;
    }
    char err[512];
    Nnue loaded = {0};
    bool embedded = !strcmp(raw, "<embedded>");
    if (embedded ? !nnue_load_embedded(&loaded, err, sizeof err) : !nnue_load(&loaded, raw, err, sizeof err)) {
        engine_say(e, "info string %s; the current network stays", err);
        return;
    }
    nnue_free(&e->pending_net);
    e->pending_net = loaded;
    e->pending_clear = true; // the TT holds the old evaluation's scores
    char buckets[32] = "", inputs[48] = "768";
    if (loaded.buckets > 1)
        snprintf(buckets, sizeof buckets, ", %d output buckets", loaded.buckets);
    if (loaded.inputs.kbuckets)
        snprintf(inputs, sizeof inputs, "768 x %d king buckets, mirrored", loaded.inputs.kbuckets);
    engine_say(e, "info string network '%s': (%s -> %d) x 2 -> 1%s%s", raw, inputs, loaded.hidden, buckets,
               e->searching ? ", in use from the next search" : "");
    job_reap_finished(e);
}

static void set_use_nnue(Engine *e, const OptionValue *v)
{
    bool flag = v->num;
    if (flag != e->use_nnue) {
        e->use_nnue = flag;
        e->pending_clear = true; // the TT holds the other evaluation's scores
        job_reap_finished(e);
    }
    if (flag && !e->net.memory && !e->pending_net.memory)
        engine_say(e, "info string Use NNUE: no network loaded (set EvalFile); the hand-written evaluation is used");
}

static void set_limit_strength(Engine *e, const OptionValue *v)
{
    bool flag = v->num;
    if (flag != e->limit_strength && e->use_nnue) {
        e->pending_clear = true; // limited games use the hand-written evaluation
        job_reap_finished(e);
    }
    e->limit_strength = flag;
}

static void set_book_file(Engine *e, const OptionValue *v)
{
    book_close(&e->book);
    if (!v->raw || !*v->raw || !strcmp(v->raw, "<empty>")) {
        engine_debug(e, "BookFile cleared");
        return;
    }
    char err[512];
    if (!book_open(&e->book, v->raw, err, sizeof err)) {
        engine_say(e, "info string %s; book off", err);
        return;
    }
    engine_say(e, "info string book '%s': %llu entries", v->raw, (unsigned long long)e->book.entries);
}

// Tables in use by a search are replaced only after it.
static void set_tb_path(Engine *e, const OptionValue *v)
{
    const char *path = v->raw ? v->raw : "";
    free(e->pending_tb_path);
    e->pending_tb_path = malloc(strlen(path) + 1);
    if (!e->pending_tb_path) {
        engine_say(e, "info string out of memory for SyzygyPath; the tables stay");
        return;
    }
    strcpy(e->pending_tb_path, path);
    if (job_running(e))
        engine_say(e, "info string SyzygyPath: in use from the next search");
    job_reap_finished(e);
}

// The one place each option's name, type, default and range are written.
static const Option OPTIONS[] = {
    {"Hash", OPT_SPIN, 16, 1, HASH_MAX_MB, NULL, false, set_hash},
    {"Threads", OPT_SPIN, 1, 1, POOL_MAX_THREADS, NULL, false, set_threads},
    {"MultiPV", OPT_SPIN, 1, 1, MAX_MOVES, NULL, false, set_multipv},
    {"Move Overhead", OPT_SPIN, 10, 0, 5000, NULL, false, set_overhead},
    {"Ponder", OPT_CHECK, 0, 0, 0, NULL, false, set_ponder},
    {"Clear Hash", OPT_BUTTON, 0, 0, 0, NULL, false, clear_hash},
    {"UCI_Chess960", OPT_CHECK, 0, 0, 0, NULL, false, set_chess960},
    {"UCI_ShowWDL", OPT_CHECK, 0, 0, 0, NULL, false, set_show_wdl},
    // With a built-in network it is the default evaluation.
    {"EvalFile", OPT_STRING, 0, 0, 0, "<empty>", true, set_eval_file},
    {"Use NNUE", OPT_CHECK, 0, 0, 0, NULL, true, set_use_nnue},
    {"UCI_LimitStrength", OPT_CHECK, 0, 0, 0, NULL, false, set_limit_strength},
    {"UCI_Elo", OPT_SPIN, 1500, STRENGTH_MIN_ELO, STRENGTH_MAX_ELO, NULL, false, set_elo},
    {"OwnBook", OPT_CHECK, 0, 0, 0, NULL, false, set_own_book},
    {"BookFile", OPT_STRING, 0, 0, 0, "<empty>", false, set_book_file},
    {"BookBestMove", OPT_CHECK, 0, 0, 0, NULL, false, set_book_best},
    {"SyzygyPath", OPT_STRING, 0, 0, 0, "<empty>", false, set_tb_path},
    {"SyzygyProbeDepth", OPT_SPIN, 1, 1, 100, NULL, false, set_probe_depth},
    {"Syzygy50MoveRule", OPT_CHECK, 1, 0, 0, NULL, false, set_rule50},
    {"SyzygyProbeLimit", OPT_SPIN, TB_MAX_PIECES, 0, TB_MAX_PIECES, NULL, false, set_probe_limit},
};
enum { N_OPTIONS = sizeof OPTIONS / sizeof *OPTIONS };

static int64_t default_num(const Option *o) { return o->net_default ? nnue_has_embedded() : o->def; }

static const char *default_text(const Option *o)
{
    return o->net_default && nnue_has_embedded() ? "<embedded>" : o->def_text;
}

bool options_init(Engine *e)
{
    for (int i = 0; i < N_OPTIONS; i++) {
        const Option *o = &OPTIONS[i];
        if ((o->type == OPT_SPIN || o->type == OPT_CHECK) && !o->net_default) {
            OptionValue v = {default_num(o), NULL};
            o->apply(e, &v);
        }
    }
    return e->hash_mb > 0;
}

void options_print(Engine *e)
{
    for (int i = 0; i < N_OPTIONS; i++) {
        const Option *o = &OPTIONS[i];
        switch (o->type) {
        case OPT_SPIN:
            engine_say(e, "option name %s type spin default %lld min %lld max %lld", o->name,
                       (long long)default_num(o), (long long)o->min, (long long)o->max);
            break;
        case OPT_CHECK:
            engine_say(e, "option name %s type check default %s", o->name, default_num(o) ? "true" : "false");
            break;
        case OPT_STRING:
            engine_say(e, "option name %s type string default %s", o->name, default_text(o));
            break;
        case OPT_BUTTON:
            engine_say(e, "option name %s type button", o->name);
            break;
        }
    }
#ifdef OUTPOST_TUNE
    for (int i = 0; i < PARAM_COUNT; i++) {
        const ParamInfo *p = &PARAM_TABLE[i];
        engine_say(e, "option name %s type spin default %d min %d max %d", p->name, param_get(&e->params, p), p->min,
                   p->max);
    }
#endif
}

#ifdef OUTPOST_TUNE
// A tuning build's search parameters as spin options (the SPSA interface): they apply
// from the next search.
static bool set_param(Engine *e, const char *name, const char *value)
{
    for (int i = 0; i < PARAM_COUNT; i++) {
        const ParamInfo *p = &PARAM_TABLE[i];
        if (strcasecmp(name, p->name))
            continue;
        int64_t v;
        if (!engine_parse_int(value, &v) || v < p->min || v > p->max || !param_set(&e->params, p, (int)v))
            engine_say(e, "info string %s must be an integer from %d to %d, not '%s'", p->name, p->min, p->max, value);
        return true;
    }
    return false;
}
#endif

void options_set(Engine *e, const char *name, bool has_value, const char *value, const char *raw)
{
    const Option *o = NULL;
    for (int i = 0; i < N_OPTIONS && !o; i++)
        if (!strcasecmp(name, OPTIONS[i].name))
            o = &OPTIONS[i];
#ifdef OUTPOST_TUNE
    if (!o && set_param(e, name, value))
        return;
#endif
    if (!o) {
        engine_say(e, "info string unknown option '%s'", name);
        return;
    }
    OptionValue v = {0, raw};
    switch (o->type) {
    case OPT_SPIN:
        if (!engine_parse_int(value, &v.num) || v.num < o->min || v.num > o->max) {
            engine_say(e, "info string %s must be an integer from %lld to %lld, not '%s'", o->name,
                       (long long)o->min, (long long)o->max, value);
            return;
        }
        break;
    case OPT_CHECK:
        if (!has_value || (strcasecmp(value, "true") && strcasecmp(value, "false"))) {
            engine_say(e, "info string %s needs value true or false, not '%s'", o->name, value);
            return;
        }
        v.num = !strcasecmp(value, "true");
        engine_debug(e, "%s set to %s", o->name, v.num ? "true" : "false");
        break;
    case OPT_STRING:
    case OPT_BUTTON:
        break;
    }
    o->apply(e, &v);
}
