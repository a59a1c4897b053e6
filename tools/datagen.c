// SPDX-License-Identifier: MIT
// Self-play training data (docs/NNUE.md): Outpost plays games against itself from the
// start position after 8-9 random plies, searching about NODES nodes per move, and writes
// every position with the search's score, best move and the game's result as 32-byte
// records (packpos.h). Nothing is filtered here: the reader drops what it does not want.
//
//   datagen DIR [-t WORKERS] [-g GAMES] [-n NODES] [-s SEED] [-e NET] [-H MB]   play (or resume) a run
//   datagen --stats DIR                                        count records and results
//   datagen --export-text DIR OUT                              quiet positions for tools/tune
//
// Worker w writes DIR/data-w.bin and, after each chunk of CHUNK_GAMES games,
// appends "games positions bytes" to DIR/data-w.idx once the data are flushed: an
// interrupted run loses at most the chunk it was playing, and running the same command
// again resumes each worker after its last complete chunk. Game k of worker w is played
// from its own seed (SEED, w, k), so a run is reproducible whatever the interruptions.
// GAMES is per worker. With -e the games are played with that network (an exported
// tools/train file), else with the hand-written evaluation. DIR/settings records the
// nodes, the seed, the evaluation (a network by its checksum) and the transposition
// table's size of the run's first command; a resume with other settings is refused, so
// one folder never mixes them. The table is 1 MB unless -H says otherwise: searches of a
// few thousand nodes use little of it, and 16 MB (the size before -H, which a folder
// whose settings name no size was made with) cost 6-10 % of the positions a CPU second
// in cache misses and clears (two measured pairs of runs).
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "attacks.h"
#include "movegen.h"
#include "openings.h"
#include "platform.h"
#include "packpos.h"
#include "psqt.h"
#include "records.h"
#include "rng.h"
#include "root.h"
#include "zobrist.h"

enum {
    CHUNK_GAMES = 16,
    HARD_NODES_FACTOR = 8,     // hard node cap per move: soft limit times this
    DEFAULT_HASH_MB = 1,       // the transposition table without -H
    LEGACY_HASH_MB = 16,       // .. and in folders whose settings give no size
    MAX_GAME_PLIES = 600,      // a longer game is called a draw
    WIN_SCORE = 2000,          // a side this far ahead (cp, white's view) ..
    WIN_PLIES = 4,             // .. for this many plies in a row has won
    DRAW_SCORE = 10,           // both sides within this ..
    DRAW_PLIES = 12,           // .. for this many plies, from ply DRAW_FROM, is a draw
    DRAW_FROM = 60,
};

typedef struct {
    const char *dir;
    int workers;
    long games; // per worker
    uint64_t nodes;
    uint64_t seed;
    size_t hash_mb;
    const char *net_path; // NULL: the hand-written evaluation
    const Nnue *net;
} Config;

/* ---------------------------------------------------------------- playing */

// Plays one game from a fresh search state; appends its records to buf (room for
// MAX_GAME_PLIES) and returns how many. Results: 2 white wins, 1 draw, 0 black wins.
static int play_game(SearchThread *t, uint64_t nodes, uint64_t *rng, PackedPos *buf)
{
    tt_clear(t->tt);
    search_clear(t);
    while (!opening_random(t, NULL, OPENING_PLIES, rng)) // never fails from the start position in practice
        ;
    tt_clear(t->tt);
    search_clear(t);
    Position *pos = &t->pos;
    int n = 0, result = 1, win_streak = 0, draw_streak = 0;
    for (int ply = 0;; ply++) {
        if (gen_count_legal(pos) == 0) {
            result = !pos_in_check(pos) ? 1 : pos->side == WHITE ? 0 : 2;
            break;
        }
        if (n >= MAX_GAME_PLIES || pos_is_fifty_move_draw(pos) || pos_is_insufficient_material(pos)
            || pos_is_repetition(pos, 0))
            break;
        Score s;
        Move m = root_search_nodes(t, nodes, nodes * HARD_NODES_FACTOR, &s);
        packpos_pack(pos, s, m, 1, &buf[n++]); // the result is set once the game ends
        int white = pos->side == WHITE ? s : -s;
        win_streak = white >= WIN_SCORE ? (win_streak > 0 ? win_streak + 1 : 1)
                   : white <= -WIN_SCORE ? (win_streak < 0 ? win_streak - 1 : -1) : 0;
        if (win_streak >= WIN_PLIES || win_streak <= -WIN_PLIES) {
            result = win_streak > 0 ? 2 : 0;
            break;
        }
        draw_streak = ply >= DRAW_FROM && white >= -DRAW_SCORE && white <= DRAW_SCORE ? draw_streak + 1 : 0;
        if (draw_streak >= DRAW_PLIES)
            break;
        pos_make_move(pos, m);
    }
    for (int i = 0; i < n; i++)
        packpos_set_result(&buf[i], result);
    return n;
}

/* ---------------------------------------------------------------- files */

static void worker_path(char *out, size_t size, const char *dir, int w, const char *ext)
{
    snprintf(out, size, "%s/data-%d.%s", dir, w, ext);
}

// The last complete chunk recorded in an index file: games, positions, bytes (zeros when
// there is none).
static void read_index(const char *path, long *games, long *positions, long *bytes)
{
    *games = *positions = *bytes = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    long g, p, b;
    while (fscanf(f, "%ld %ld %ld", &g, &p, &b) == 3) {
        *games = g;
        *positions = p;
        *bytes = b;
    }
    fclose(f);
}

static int run_worker(const Config *cfg, int w)
{
    char bin[512], idx[512];
    worker_path(bin, sizeof bin, cfg->dir, w, "bin");
    worker_path(idx, sizeof idx, cfg->dir, w, "idx");
    long games, positions, bytes;
    read_index(idx, &games, &positions, &bytes);
    // Resume: whatever was written after the last complete chunk goes.
    FILE *out = fopen(bin, "ab");
    if (!out || truncate(bin, bytes) != 0) {
        fprintf(stderr, "datagen: cannot open %s: %s\n", bin, strerror(errno));
        return 1;
    }
    fclose(out);
    out = fopen(bin, "ab");
    FILE *index = fopen(idx, "a");
    SearchThread *t = platform_calloc_aligned(sizeof *t, _Alignof(SearchThread));
    static TT tt;
    static SearchControl ctl;
    static PackedPos chunk[CHUNK_GAMES * MAX_GAME_PLIES];
    if (!out || !index || !t || !tt_resize(&tt, cfg->hash_mb)) {
        fprintf(stderr, "datagen: worker %d: no output or memory\n", w);
        return 1;
    }
    search_init(t);
    t->tt = &tt;
    t->ctl = &ctl;
    t->nnue = cfg->net;
    t->opts = (SearchOptions){.multipv = 1, .print_bestmove = false};
    t->out = search_discard_output;
    int64_t start = tm_now();
    long played = 0, made = 0;
    while (games < cfg->games) {
        int n = 0, chunk_games = 0;
        for (; chunk_games < CHUNK_GAMES && games + chunk_games < cfg->games; chunk_games++) {
            uint64_t rng = cfg->seed ^ ((uint64_t)w << 40) ^ (uint64_t)(games + chunk_games) * 0xD1B54A32D192ED03ull;
            n += play_game(t, cfg->nodes, &rng, chunk + n);
        }
        if (fwrite(chunk, sizeof *chunk, (size_t)n, out) != (size_t)n || fflush(out) != 0 || fsync(fileno(out)) != 0) {
            fprintf(stderr, "datagen: worker %d: write failed: %s\n", w, strerror(errno));
            return 1;
        }
        games += chunk_games;
        positions += n;
        bytes += (long)(n * (int)sizeof *chunk);
        fprintf(index, "%ld %ld %ld\n", games, positions, bytes);
        fflush(index);
        played += chunk_games;
        made += n;
        double hours = (double)(tm_now() - start) / 3.6e6;
        fprintf(stderr, "worker %d: %ld games, %ld positions (this run: %.0f positions/hour)\n", w, games, positions,
                hours > 0 ? (double)made / hours : 0.0);
    }
    fclose(out);
    fclose(index);
    tt_free(&tt);
    platform_free_aligned(t);
    return 0;
}

// The settings line of a run: nodes, seed, evaluation (a network by the checksum in its
// header, which covers every weight) and, unless with_hash is false (the form before -H),
// the table's size.
static void settings_line(const Config *cfg, bool with_hash, char *out, size_t size)
{
    char eval[64] = "hand-written", hash[32] = "";
    if (cfg->net)
        snprintf(eval, sizeof eval, "network %08" PRIx32, cfg->net->checksum);
    if (with_hash)
        snprintf(hash, sizeof hash, " hash %zu", cfg->hash_mb);
    snprintf(out, size, "nodes %" PRIu64 " seed %" PRIu64 " eval %s%s\n", cfg->nodes, cfg->seed, eval, hash);
}

// Writes DIR/settings on a run's first command; later commands must match it (a line
// without a size matches -H 16).
static bool check_settings(const Config *cfg)
{
    char want[160], legacy[160], have[160] = "", path[512];
    settings_line(cfg, true, want, sizeof want);
    settings_line(cfg, false, legacy, sizeof legacy);
    snprintf(path, sizeof path, "%s/settings", cfg->dir);
    FILE *f = fopen(path, "r");
    if (f) {
        bool read = fgets(have, sizeof have, f) != NULL;
        fclose(f);
        if (!read || (strcmp(have, want) && (cfg->hash_mb != LEGACY_HASH_MB || strcmp(have, legacy)))) {
            fprintf(stderr, "datagen: %s was made with \"%.*s\", not \"%.*s\": use another folder\n", cfg->dir,
                    (int)strcspn(have, "\n"), have, (int)strcspn(want, "\n"), want);
            return false;
        }
        return true;
    }
    f = fopen(path, "w");
    bool ok = f && fputs(want, f) >= 0;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "datagen: cannot write %s: %s\n", path, strerror(errno));
    return ok;
}

static int play(const Config *cfg)
{
    if (mkdir(cfg->dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "datagen: cannot create %s: %s\n", cfg->dir, strerror(errno));
        return 1;
    }
    if (!check_settings(cfg))
        return 1;
    if (cfg->workers == 1)
        return run_worker(cfg, 0);
    for (int w = 0; w < cfg->workers; w++) {
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0)
            _exit(run_worker(cfg, w));
    }
    int failed = 0, status;
    while (wait(&status) > 0)
        failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    return failed;
}

/* ---------------------------------------------------------------- reading */

typedef struct {
    long count, results[3], in_check, noisy, mate;
    Position pos;
    FILE *text;
    const char *dir;
    void (*fn)(const UnpackedPos *, void *); // what is done with each record
} Reader;

// records_for_each's callback: unpacks a record and hands it to the reader's function.
static bool read_record(const PackedPos *p, size_t i, void *ctx)
{
    Reader *r = ctx;
    UnpackedPos u;
    if (!packpos_unpack(p, &u)) {
        fprintf(stderr, "datagen: malformed record %zu of a data file in %s\n", i, r->dir);
        return false;
    }
    r->fn(&u, r);
    r->count++;
    return true;
}

// The filters training applies: in check, a noisy best move, a mate score.
static void classify(const UnpackedPos *u, Reader *r, bool *check, bool *noisy, bool *mate)
{
    char err[128];
    if (!pos_set_fen(&r->pos, u->fen, false, err, sizeof err)) {
        fprintf(stderr, "datagen: bad record FEN %s: %s\n", u->fen, err);
        exit(1);
    }
    *check = pos_in_check(&r->pos);
    *noisy = move_is_noisy(u->move);
    *mate = u->score >= SCORE_MATE_IN_MAX || u->score <= SCORE_MATED_IN_MAX;
}

static void count_record(const UnpackedPos *u, void *ctx)
{
    Reader *r = ctx;
    bool check, noisy, mate;
    classify(u, r, &check, &noisy, &mate);
    r->results[u->result]++;
    r->in_check += check;
    r->noisy += noisy;
    r->mate += mate;
}

static void export_record(const UnpackedPos *u, void *ctx)
{
    Reader *r = ctx;
    bool check, noisy, mate;
    classify(u, r, &check, &noisy, &mate);
    static const char *const LABEL[3] = {"[0.0]", "[0.5]", "[1.0]"};
    if (!check && !noisy && !mate)
        fprintf(r->text, "%s %s\n", u->fen, LABEL[u->result]);
}

static int stats(const char *dir)
{
    static Reader r;
    r.fn = count_record;
    r.dir = dir;
    if (!records_for_each(dir, "datagen", read_record, &r))
        return 1;
    long n = r.count;
    printf("%ld positions: white wins %ld, draws %ld, black wins %ld; in check %ld, noisy best move %ld, "
           "mate score %ld\n",
           n, r.results[2], r.results[1], r.results[0], r.in_check, r.noisy, r.mate);
    return 0;
}

static int export_text(const char *dir, const char *path)
{
    static Reader r;
    r.text = fopen(path, "w");
    if (!r.text) {
        perror(path);
        return 1;
    }
    r.fn = export_record;
    r.dir = dir;
    bool ok = records_for_each(dir, "datagen", read_record, &r);
    fclose(r.text);
    return !ok;
}

static int usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s DIR [-t WORKERS] [-g GAMES_PER_WORKER] [-n NODES] [-s SEED] [-e NET] [-H HASH_MB]\n"
            "       %s --stats DIR\n"
            "       %s --export-text DIR OUT\n",
            argv0, argv0, argv0);
    return 2;
}

int main(int argc, char **argv)
{
    attacks_init();
    zobrist_init();
    psqt_init();
    if (argc == 3 && !strcmp(argv[1], "--stats"))
        return stats(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "--export-text"))
        return export_text(argv[2], argv[3]);
    if (argc < 2 || argv[1][0] == '-')
        return usage(argv[0]);
    Config cfg = {.dir = argv[1], .workers = 1, .games = 1000000, .nodes = 5000, .seed = 1, .hash_mb = DEFAULT_HASH_MB};
    for (int i = 2; i < argc; i++) {
        if (i + 1 >= argc)
            return usage(argv[0]);
        const char *v = argv[++i];
        if (!strcmp(argv[i - 1], "-e")) {
            cfg.net_path = v;
            continue;
        }
        char *end;
        unsigned long long x = strtoull(v, &end, 10);
        if (*end || end == v)
            return usage(argv[0]);
        if (!strcmp(argv[i - 1], "-t") && x >= 1 && x <= 256)
            cfg.workers = (int)x;
        else if (!strcmp(argv[i - 1], "-g") && x >= 1)
            cfg.games = (long)x;
        else if (!strcmp(argv[i - 1], "-n") && x >= 1)
            cfg.nodes = x;
        else if (!strcmp(argv[i - 1], "-s"))
            cfg.seed = x;
        else if (!strcmp(argv[i - 1], "-H") && x >= 1 && x <= 4096)
            cfg.hash_mb = (size_t)x;
        else
            return usage(argv[0]);
    }
    static Nnue net;
    if (cfg.net_path) {
        char err[256];
        if (!nnue_load(&net, cfg.net_path, err, sizeof err)) {
            fprintf(stderr, "datagen: %s\n", err);
            return 1;
        }
        cfg.net = &net;
    }
    return play(&cfg);
}
