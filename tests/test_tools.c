// SPDX-License-Identifier: MIT
// Tests of the data and tuning tools (build/tools, or $OUTPOST_TOOLS): the 32-byte record
// packs and unpacks every perft position exactly; datagen's runs are reproducible and
// resume after an interruption to the same bytes; with -e a network plays, and a folder
// refuses a resume with other settings; its text export holds well-formed
// labelled quiet positions; train's command line, with reflected positions, lowers the
// held-out loss and exports a network the engine loads; tune with no epochs writes src/weights.c back unchanged (the
// layout contract between weights.h, the tuner and the table); a few epochs lower the
// error; pgn2data turns a fastchess PGN into the records, naming and skipping a
// malformed game; distill writes quiet children of the training records scored by a
// network, which train -d trains on without holding any out; netscale scales a network's
// output by a factor given or fitted to another network's.
#define _POSIX_C_SOURCE 200809L // popen, getpid
#include "test_util.h"

#include <math.h>
#include <unistd.h>

#include "move.h"
#include "movegen.h"
#include "nnue.h"
#include "nnue_train.h"
#include "packpos.h"
#include "position.h"
#include "see.h"

static char data_dir[64], data_path[64], weights_path[64];

static const char *tools_dir(void)
{
    const char *d = getenv("OUTPOST_TOOLS");
    return d ? d : "build/tools";
}

static int sh(const char *fmt, ...)
{
    char cmd[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return system(cmd);
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(data_dir, sizeof data_dir, "build/test_tools_%d", (int)getpid());
    snprintf(data_path, sizeof data_path, "build/test_tools_%d.txt", (int)getpid());
    snprintf(weights_path, sizeof weights_path, "build/test_tools_%d.c", (int)getpid());
    if (sh("%s/datagen %s -t 2 -g 3 -n 2000 -s 5 2>/dev/null", tools_dir(), data_dir))
        return -1;
    return sh("%s/datagen --export-text %s %s", tools_dir(), data_dir, data_path) == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    sh("rm -rf %s %s-a %s-b %s-c %s-n %s-d*.bin", data_dir, data_dir, data_dir, data_dir, data_dir, data_dir);
    remove(data_path);
    remove(weights_path);
    return 0;
}

// Every position of the perft suite (and its children) survives pack + unpack: the same
// FEN up to the fullmove number, score, move and result.
static void test_packpos_round_trip(void **state)
{
    (void)state;
    static Position pos, back;
    FILE *f = open_data("perft.epd");
    char line[512], err[128];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        *strchr(line, ';') = '\0';
        assert_true(pos_set_fen(&pos, line, false, err, sizeof err));
        MoveList list;
        gen_moves(&pos, &list, GEN_ALL);
        for (int i = -1; i < list.count; i++) {
            if (i >= 0)
                pos_make_move(&pos, list.moves[i]);
            PackedPos p;
            Score score = (Score)(n * 37 % 64001) - 32000;
            Move move = i >= 0 ? list.moves[i] : MOVE_NONE;
            packpos_pack(&pos, score, move, n % 3, &p);
            UnpackedPos u;
            assert_true(packpos_unpack(&p, &u));
            assert_int_equal(u.score, score);
            assert_int_equal(u.move, move);
            assert_int_equal(u.result, n % 3);
            assert_int_equal(u.side, pos.side);
            char want[FEN_MAX], got[FEN_MAX];
            pos_to_fen(&pos, want);
            assert_true(pos_set_fen(&back, u.fen, false, err, sizeof err));
            pos_to_fen(&back, got);
            *strrchr(want, ' ') = '\0'; // the fullmove number is not stored
            *strrchr(got, ' ') = '\0';
            assert_string_equal(want, got);
            if (i >= 0)
                pos_unmake_move(&pos, list.moves[i]);
            n++;
        }
    }
    fclose(f);
    PackedPos bad = {{0}};
    bad.bytes[0] = 1;      // one piece on a1 ..
    bad.bytes[8] = 12;     // .. with no valid code
    UnpackedPos u;
    assert_false(packpos_unpack(&bad, &u));
    print_message("%d positions packed and unpacked\n", n);
}

// The same seed gives the same bytes, whether the run is interrupted (here: stopped after
// 2 games, then a torn write appended) or not, and with 1 or 2 workers for worker 0.
static void test_datagen_resume(void **state)
{
    (void)state;
    assert_int_equal(sh("%s/datagen %s-a -g 3 -n 1500 -s 9 2>/dev/null", tools_dir(), data_dir), 0);
    assert_int_equal(sh("%s/datagen %s-b -g 2 -n 1500 -s 9 2>/dev/null", tools_dir(), data_dir), 0);
    assert_int_equal(sh("head -c 777 /dev/urandom >> %s-b/data-0.bin", data_dir), 0);
    assert_int_equal(sh("%s/datagen %s-b -t 2 -g 3 -n 1500 -s 9 2>/dev/null", tools_dir(), data_dir), 0);
    assert_int_equal(sh("cmp -s %s-a/data-0.bin %s-b/data-0.bin", data_dir, data_dir), 0);
    assert_int_equal(sh("test -s %s-b/data-1.bin", data_dir), 0);
    assert_int_not_equal(sh("cmp -s %s-b/data-0.bin %s-b/data-1.bin", data_dir, data_dir), 0);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/datagen --stats %s-b", tools_dir(), data_dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    long n = 0, w = -1, d = -1, b = -1;
    assert_int_equal(fscanf(p, "%ld positions: white wins %ld, draws %ld, black wins %ld", &n, &w, &d, &b), 4);
    pclose(p);
    assert_true(n > 100 && w + d + b == n);
}

// -e plays with a network: the same seed gives other games than the hand-written
// evaluation's, reproducibly. A folder keeps the settings of its first run: a resume with
// another evaluation, node count, seed or table size is refused and writes nothing; a
// folder whose settings give no size (made before -H) resumes with -H 16 alone.
static void test_datagen_network(void **state)
{
    (void)state;
    const char *net = "tests/data/nnue_tiny.nnue";
    assert_int_equal(sh("%s/datagen %s-n -g 1 -n 1500 -s 9 -e %s 2>/dev/null", tools_dir(), data_dir, net), 0);
    assert_int_equal(sh("grep -q '^nodes 1500 seed 9 eval network [0-9a-f]* hash 1$' %s-n/settings", data_dir), 0);
    // The hand-written run of the same seed (test_datagen_resume's -a folder) differs.
    assert_int_not_equal(sh("cmp -s %s-a/data-0.bin %s-n/data-0.bin", data_dir, data_dir), 0);
    assert_int_equal(sh("cp %s-n/data-0.bin %s-n/first.bin", data_dir, data_dir), 0);
    assert_int_not_equal(sh("%s/datagen %s-n -g 2 -n 1500 -s 9 2>/dev/null", tools_dir(), data_dir), 0);
    assert_int_not_equal(sh("%s/datagen %s-n -g 2 -n 1000 -s 9 -e %s 2>/dev/null", tools_dir(), data_dir, net), 0);
    assert_int_not_equal(sh("%s/datagen %s-n -g 2 -n 1500 -s 8 -e %s 2>/dev/null", tools_dir(), data_dir, net), 0);
    assert_int_not_equal(sh("%s/datagen %s-n -g 2 -n 1500 -s 9 -H 2 -e %s 2>/dev/null", tools_dir(), data_dir, net), 0);
    assert_int_not_equal(sh("%s/datagen %s-n -g 2 -n 1500 -s 9 -H 16 -e %s 2>/dev/null", tools_dir(), data_dir, net),
                         0);
    assert_int_not_equal(sh("%s/datagen %s-n -g 2 -n 1500 -s 9 -e %s 2>/dev/null", tools_dir(), data_dir,
                            "tests/data/missing.nnue"),
                         0);
    assert_int_equal(sh("cmp -s %s-n/data-0.bin %s-n/first.bin", data_dir, data_dir), 0);
    // The same settings resume, and the network's first game comes out again byte for byte.
    assert_int_equal(sh("%s/datagen %s-n -g 2 -n 1500 -s 9 -e %s 2>/dev/null", tools_dir(), data_dir, net), 0);
    assert_int_equal(sh("cmp -s -n $(stat -c %%s %s-n/first.bin) %s-n/data-0.bin %s-n/first.bin", data_dir,
                        data_dir, data_dir),
                     0);
    assert_int_equal(sh("test $(stat -c %%s %s-n/data-0.bin) -gt $(stat -c %%s %s-n/first.bin)", data_dir, data_dir),
                     0);
}

// The settings name a network by its header's checksum, the last header word in every
// format version (9, 10 or 19 words: version 2 adds the bucket count, version 3 the king
// buckets): two networks of the same shape must not share a name, or a resume could mix
// their games.
static void test_datagen_network_name(void **state)
{
    (void)state;
    const char *nets[] = {"tests/data/nnue_tiny.nnue", "nets/default.nnue"};
    for (int i = 0; i < 2; i++) {
        uint8_t bytes[4 * NNUE_HEADER_MAX_WORDS];
        FILE *f = fopen(nets[i], "rb");
        assert_non_null(f);
        size_t size = fread(bytes, 1, sizeof bytes, f);
        fclose(f);
        NnueHeader header = {0};
        assert_true(nnue_header_read(bytes, size, &header));
        uint32_t checksum = header.checksum;
        assert_int_equal(sh("rm -rf %s-c && %s/datagen %s-c -g 1 -n 300 -s 9 -e %s 2>/dev/null", data_dir,
                            tools_dir(), data_dir, nets[i]),
                         0);
        assert_int_equal(
            sh("grep -qx 'nodes 300 seed 9 eval network %08x hash 1' %s-c/settings", (unsigned)checksum, data_dir),
            0);
    }
    // A folder of the form before -H (no size: 16 MB) resumes with -H 16 only.
    assert_int_equal(sh("sed -i 's/ hash 1$//' %s-c/settings", data_dir), 0);
    assert_int_not_equal(sh("%s/datagen %s-c -g 2 -n 300 -s 9 -e %s 2>/dev/null", tools_dir(), data_dir, nets[1]), 0);
    assert_int_not_equal(
        sh("%s/datagen %s-c -g 2 -n 300 -s 9 -H 1 -e %s 2>/dev/null", tools_dir(), data_dir, nets[1]), 0);
    assert_int_equal(sh("%s/datagen %s-c -g 2 -n 300 -s 9 -H 16 -e %s 2>/dev/null", tools_dir(), data_dir, nets[1]),
                     0);
    assert_int_equal(sh("grep -qx 'nodes 300 seed 9 eval network [0-9a-f]*' %s-c/settings", data_dir), 0);
}

static void test_datagen_output(void **state)
{
    (void)state;
    static Position pos;
    FILE *in = fopen(data_path, "r");
    assert_non_null(in);
    char line[256], err[128];
    int lines = 0, labels[3] = {0, 0, 0};
    while (fgets(line, sizeof line, in)) {
        char *bracket = strchr(line, '[');
        assert_non_null(bracket);
        if (!strcmp(bracket, "[1.0]\n"))
            labels[2]++;
        else if (!strcmp(bracket, "[0.5]\n"))
            labels[1]++;
        else if (!strcmp(bracket, "[0.0]\n"))
            labels[0]++;
        else
            fail_msg("bad label in %s", line);
        *bracket = '\0';
        if (!pos_set_fen(&pos, line, false, err, sizeof err))
            fail_msg("bad FEN %s: %s", line, err);
        assert_false(pos_in_check(&pos)); // quiet positions only
        lines++;
    }
    fclose(in);
    assert_true(lines >= 40); // six games
}

// Reads train's summary line into the records it trains on and holds out; false for
// any other line.
static bool train_counts(const char *line, long *kept, long *held)
{
    return sscanf(line, "%*d records: %*d skipped (in check, noisy best move, mate score), %ld to train on, %ld held out",
                  kept, held)
           == 2;
}

// Runs train for two epochs with `options` on the committed sample (too small to hold
// any out) into data_dir.nnue: the loss must fall by a tenth, the export load into net.
// Returns the records it trained on.
static long run_train(const char *options, Nnue *net)
{
    char cmd[512], line[256];
    snprintf(cmd, sizeof cmd, "%s/train -o %s.nnue -H 8 -e 2 -b 256 -l 0.01 -t 2 %s tests/data/nnue_sample.bin 2>&1",
             tools_dir(), data_dir, options);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    double start = -1, end = -1;
    long kept = 0;
    while (fgets(line, sizeof line, p)) {
        double h;
        long n, held;
        if (sscanf(line, "epoch 0 (start): train loss %lf", &start) == 1
            || sscanf(line, "epoch 2: train loss %lf, held-out loss %lf", &end, &h) == 2)
            continue;
        if (train_counts(line, &n, &held))
            kept = n;
    }
    assert_int_equal(pclose(p), 0);
    assert_true(start > 0 && end > 0 && end < 0.9 * start);
    char path[128], err[256];
    snprintf(path, sizeof path, "%s.nnue", data_dir);
    if (!nnue_load(net, path, err, sizeof err))
        fail_msg("%s", err);
    sh("rm -f %s.nnue %s.nnue.ckpt", data_dir, data_dir);
    return kept;
}

// The records train holds out of `files` (one epoch of a tiny network).
static long held_out(const char *files)
{
    char cmd[768], line[256];
    snprintf(cmd, sizeof cmd, "%s/train -o %s-h.nnue -H 8 -e 1 -b 256 -t 1 %s 2>&1", tools_dir(), data_dir, files);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    long held = -1, kept;
    while (fgets(line, sizeof line, p))
        train_counts(line, &kept, &held);
    assert_int_equal(pclose(p), 0);
    sh("rm -f %s-h.nnue %s-h.nnue.ckpt", data_dir, data_dir);
    return held;
}

// A file's held-out blocks are counted from its own start: what train holds out of two
// files is what it holds out of each alone, whatever the first one's length (here 4,000
// records, not a whole number of 32 blocks of 128).
static void test_train_held_out_per_file(void **state)
{
    (void)state;
    assert_int_equal(sh("cat tests/data/nnue_sample.bin > %s-a.bin && head -c 32000 tests/data/nnue_sample.bin >> "
                        "%s-a.bin && cat tests/data/nnue_sample.bin tests/data/nnue_sample.bin > %s-b.bin",
                        data_dir, data_dir, data_dir),
                     0);
    char a[256], b[256], both[512];
    snprintf(a, sizeof a, "%s-a.bin", data_dir);
    snprintf(b, sizeof b, "%s-b.bin", data_dir);
    snprintf(both, sizeof both, "%s %s", a, b);
    long ha = held_out(a), hb = held_out(b), hab = held_out(both);
    assert_true(ha > 0 && hb > 0);
    assert_int_equal(hab, ha + hb);
    sh("rm -f %s-a.bin %s-b.bin", data_dir, data_dir);
}

// train -m: two epochs over every record and its reflection.
static void test_train_command(void **state)
{
    (void)state;
    static Nnue net;
    assert_true(run_train("-m", &net) > 2000);
    assert_int_equal(net.hidden, 8);
    nnue_free(&net);
}

// train with options that it must refuse, saying `reason`.
static void train_refuses(const char *options, const char *reason)
{
    char cmd[512], line[256];
    snprintf(cmd, sizeof cmd, "%s/train -o %s.nnue %s tests/data/nnue_sample.bin 2>&1", tools_dir(), data_dir, options);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    bool said = false;
    while (fgets(line, sizeof line, p))
        said |= strstr(line, reason) != NULL;
    assert_int_not_equal(pclose(p), 0);
    if (!said)
        fail_msg("train %s did not say '%s'", options, reason);
}

// train -K 4, plain and factorised (-F): a version-3 network of four king buckets; -K
// with -m, and -F without -K, are refused with their reasons; a king-bucketed export goes
// on in its shape, factorised again with -F.
static void test_train_king_buckets(void **state)
{
    (void)state;
    static Nnue net;
    for (int factor = 0; factor < 2; factor++) {
        run_train(factor ? "-O 2 -K 4 -F" : "-O 2 -K 4", &net);
        assert_int_equal(net.hidden, 8);
        assert_int_equal(net.inputs.kbuckets, 4);
        nnue_free(&net);
    }
    train_refuses("-K 4 -m", "-m adds nothing with -K");
    train_refuses("-F", "-F factorises king buckets: it needs -K");

    // Going on from that export: in its own shape, with -F its shared rows back at zero;
    // either way the loss before the first step is the export's. Another -K is refused.
    char kb[128], cmd[512], line[256];
    snprintf(kb, sizeof kb, "%s-kb.nnue", data_dir);
    assert_int_equal(sh("%s/train -o %s -H 8 -O 2 -K 4 -F -e 1 -b 256 -t 1 tests/data/nnue_sample.bin >/dev/null 2>&1",
                        tools_dir(), kb),
                     0);
    double start[2] = {-1, -1};
    for (int factor = 0; factor < 2; factor++) {
        snprintf(cmd, sizeof cmd, "%s/train -o %s.nnue -O 2 -K 4 %s -e 1 -b 256 -t 1 --init %s "
                 "tests/data/nnue_sample.bin 2>&1", tools_dir(), data_dir, factor ? "-F" : "", kb);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        bool said = false;
        while (fgets(line, sizeof line, p)) {
            sscanf(line, "epoch 0 (start): train loss %lf", &start[factor]);
            said |= strstr(line, factor ? "4 king buckets (factorised)" : "4 king buckets, ") != NULL;
        }
        assert_int_equal(pclose(p), 0);
        assert_true(said);
    }
    assert_true(start[0] > 0);
    assert_true(start[0] == start[1]);
    char refused[256];
    snprintf(refused, sizeof refused, "-O 2 -K 2 -F --init %s", kb);
    train_refuses(refused, "cannot grow");
    sh("rm -f %s %s.ckpt %s.nnue %s.nnue.ckpt", kb, kb, data_dir, data_dir);
}

// Runs tune on the generated data; returns its stderr in buf.
static void run_tune(int epochs, char *buf, size_t size)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/tune -e %d -o %s -s test %s 2>&1", tools_dir(), epochs, weights_path, data_path);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(buf, 1, size - 1, p);
    buf[n] = '\0';
    assert_int_equal(pclose(p), 0);
}

// Reads a file, dropping its "// Source:" line (the tuner's note of where values came from).
static void read_without_source(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[512];
    buf[0] = '\0';
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "// Source:", 10) && strlen(buf) + strlen(line) < size)
            strcat(buf, line);
    fclose(f);
}

static void test_tune_round_trip(void **state)
{
    (void)state;
    static char log[4096], written[65536], committed[65536];
    run_tune(0, log, sizeof log);
    read_without_source(weights_path, written, sizeof written);
    read_without_source("src/weights.c", committed, sizeof committed);
    assert_true(strlen(committed) > 1000);
    assert_string_equal(written, committed);
}

static double error_at(const char *log, int epoch)
{
    char key[32];
    snprintf(key, sizeof key, "epoch %d: error ", epoch);
    const char *p = strstr(log, key);
    if (!p)
        fail_msg("no '%s' in tune's output:\n%s", key, log);
    return atof(p + strlen(key));
}

static void test_tune_lowers_error(void **state)
{
    (void)state;
    static char log[8192];
    run_tune(100, log, sizeof log);
    double before = error_at(log, 0), after = error_at(log, 100);
    assert_true(before > 0 && after < before);
}

// pgn2data on the PGN fastchess played (4 games, 564 scored moves) with a malformed game
// between two copies of it: the bad game is named with its file and number and skipped,
// the others all converted; the first record is the first game's start position with
// its first move, that move's score (the mover's view) and the game's result.
static void test_pgn2data(void **state)
{
    (void)state;
    char bad[96], out[96], bin[96];
    snprintf(bad, sizeof bad, "%s-bad.pgn", data_dir);
    snprintf(out, sizeof out, "%s-pgn.txt", data_dir);
    snprintf(bin, sizeof bin, "%s-pgn.bin", data_dir);
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    fputs("[Result \"1-0\"]\n\n1. e4 {+0.3/5} e5 {-0.2/5} 2. Qxf7 {+1.0/4} 1-0\n", f);
    fclose(f);
    assert_int_equal(sh("%s/pgn2data %s tests/data/fastchess_nodes5000.pgn %s tests/data/fastchess_nodes5000.pgn "
                        ">%s 2>&1", tools_dir(), bin, bad, out), 0);
    char text[2048] = "";
    f = fopen(out, "r");
    assert_non_null(f);
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    char want[256];
    snprintf(want, sizeof want, "%s, game 1 (ending at line 3): illegal or unreadable move 'Qxf7' at ply 3; skipped", bad);
    if (!strstr(text, want) || !strstr(text, "9 games: 8 converted, 1 malformed, 0 unfinished, 0 Chess960 (skipped); "
                                             "1128 positions written, 0 moves without a score (book) not written"))
        fail_msg("pgn2data said: %s", text);
    f = fopen(bin, "rb");
    assert_non_null(f);
    PackedPos rec;
    UnpackedPos u;
    assert_int_equal(fread(&rec, sizeof rec, 1, f), 1);
    fseek(f, 0, SEEK_END);
    assert_int_equal(ftell(f), 1128 * (long)sizeof rec);
    fclose(f);
    assert_true(packpos_unpack(&rec, &u));
    assert_string_equal(u.fen, "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 1");
    assert_int_equal(u.score, 6);
    assert_int_equal(u.result, 0);
    char mv[MOVE_STR_MAX];
    move_to_uci(u.move, false, mv);
    assert_string_equal(mv, "b5c6");
    remove(bad);
    remove(out);
    remove(bin);
}

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

// Runs distill with `args` into out; returns its exit status.
static int run_distill(const char *out, const char *args)
{
    return sh("%s/distill %s tests/data/nnue_tiny.nnue %s >/dev/null 2>&1", tools_dir(), out, args);
}

// distill on the committed sample and its positions one move on (6,000 records, so that
// records 3,968-4,095 fall in train's held-out blocks): every record it writes is a quiet child (not in check,
// no capture winning material by SEE) of a record outside those blocks, scored with the
// network's static evaluation, with no move; the same seed writes the same bytes, another
// seed others; train -d trains on all of them and holds out what it held out before; a bad
// option or a missing network is refused.
static void test_distill(void **state)
{
    (void)state;
    char in[96], out[96], again[96], other[96];
    snprintf(in, sizeof in, "%s-d2.bin", data_dir);
    snprintf(out, sizeof out, "%s-d.bin", data_dir);
    snprintf(again, sizeof again, "%s-d-again.bin", data_dir);
    snprintf(other, sizeof other, "%s-d-other.bin", data_dir);
    static Position pos;
    char err[128];
    PackedPos rec;
    UnpackedPos u;
    // The sample, then each of its positions one move on: 6,000 records, the held-out ones
    // unlike any before them.
    assert_int_equal(sh("cp tests/data/nnue_sample.bin %s", in), 0);
    FILE *src = fopen("tests/data/nnue_sample.bin", "rb"), *f = fopen(in, "ab");
    assert_true(src && f);
    while (fread(&rec, sizeof rec, 1, src) == 1) {
        assert_true(packpos_unpack(&rec, &u));
        assert_true(pos_set_fen(&pos, u.fen, false, err, sizeof err));
        MoveList list;
        gen_moves(&pos, &list, GEN_ALL);
        if (list.count)
            pos_make_move(&pos, list.moves[0]);
        packpos_pack(&pos, u.score, MOVE_NONE, u.result, &rec);
        assert_int_equal(fwrite(&rec, sizeof rec, 1, f), 1);
    }
    fclose(src);
    assert_int_equal(fclose(f), 0);
    char args[256];
    snprintf(args, sizeof args, "-k 3 -s 4 %s", in);
    assert_int_equal(run_distill(out, args), 0);
    assert_int_equal(run_distill(again, args), 0);
    snprintf(args, sizeof args, "-k 3 -s 5 %s", in);
    assert_int_equal(run_distill(other, args), 0);
    assert_int_equal(sh("cmp -s %s %s", out, again), 0);
    assert_int_not_equal(sh("cmp -s %s %s", out, other), 0);
    assert_int_not_equal(run_distill(again, "-k 0 tests/data/nnue_sample.bin"), 0);
    assert_int_not_equal(run_distill(again, "-x 1 tests/data/nnue_sample.bin"), 0);
    assert_int_not_equal(sh("%s/distill %s tests/data/missing.nnue %s >/dev/null 2>&1", tools_dir(), again, in), 0);

    // The keys of every child of every record outside the held-out blocks.
    static uint64_t keys[6000 * MAX_MOVES];
    size_t n_keys = 0;
    f = fopen(in, "rb");
    assert_non_null(f);
    for (size_t i = 0; fread(&rec, sizeof rec, 1, f) == 1; i++) {
        if (nn_held_out(i) || !packpos_unpack(&rec, &u) || !pos_set_fen(&pos, u.fen, false, err, sizeof err))
            continue;
        MoveList list;
        gen_moves(&pos, &list, GEN_ALL);
        for (int j = 0; j < list.count; j++) {
            pos_make_move(&pos, list.moves[j]);
            keys[n_keys++] = pos_key(&pos);
            pos_unmake_move(&pos, list.moves[j]);
        }
    }
    fclose(f);
    qsort(keys, n_keys, sizeof *keys, cmp_key);

    static Nnue net;
    assert_true(nnue_load(&net, "tests/data/nnue_tiny.nnue", err, sizeof err));
    f = fopen(out, "rb");
    assert_non_null(f);
    long written = 0;
    while (fread(&rec, sizeof rec, 1, f) == 1) {
        assert_true(packpos_unpack(&rec, &u));
        assert_true(pos_set_fen(&pos, u.fen, false, err, sizeof err));
        uint64_t key = pos_key(&pos);
        if (!bsearch(&key, keys, n_keys, sizeof *keys, cmp_key))
            fail_msg("record %ld (%s) is no child of a record train trains on", written, u.fen);
        assert_false(pos_in_check(&pos));
        MoveList list;
        gen_moves(&pos, &list, GEN_NOISY);
        for (int j = 0; j < list.count; j++)
            assert_false(see_ge(&pos, list.moves[j], 1));
        Accumulator acc;
        nnue_refresh(&net, &pos, &acc);
        assert_int_equal(u.score, nnue_evaluate(&net, &acc, pos.side, popcount(pos_occupied(&pos))));
        assert_int_equal(u.move, MOVE_NONE);
        assert_true(u.result >= 0 && u.result <= 2);
        written++;
    }
    fclose(f);
    nnue_free(&net);
    assert_true(written > 3000);

    // train -d: the distilled records all trained on, the held-out ones unchanged.
    char cmd[512], line[256];
    long kept[2] = {0, 0}, held[2] = {-1, -1};
    for (int with = 0; with < 2; with++) {
        snprintf(cmd, sizeof cmd, "%s/train -o %s-t.nnue -H 8 -e 1 -b 256 -t 1 %s%s %s 2>&1", tools_dir(), data_dir,
                 with ? "-d " : "", with ? out : "", in);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        while (fgets(line, sizeof line, p))
            train_counts(line, &kept[with], &held[with]);
        assert_int_equal(pclose(p), 0);
    }
    assert_true(held[0] > 0);
    assert_int_equal(held[1], held[0]);
    assert_int_equal(kept[1], kept[0] + written);
    sh("rm -f %s %s %s %s %s-t.nnue %s-t.nnue.ckpt", in, out, again, other, data_dir, data_dir);
}

// netscale: -f multiplies the network's evaluations by the factor; -r fits the factor
// that brings a network to a reference's scale on held-out records (a network halved
// comes back at about 2); bad arguments and missing files fail.
static void test_netscale(void **state)
{
    (void)state;
    char half[96], back[96], data[96], cmd[512], line[256];
    snprintf(half, sizeof half, "%s-half.nnue", data_dir);
    snprintf(back, sizeof back, "%s-back.nnue", data_dir);
    snprintf(data, sizeof data, "%s-s2.bin", data_dir); // the sample twice: one held-out block
    assert_int_equal(sh("cat tests/data/nnue_sample.bin tests/data/nnue_sample.bin > %s", data), 0);
    assert_int_equal(sh("%s/netscale %s tests/data/nnue_tiny.nnue -f 0.5 >/dev/null", tools_dir(), half), 0);
    snprintf(cmd, sizeof cmd, "%s/netscale %s %s -r tests/data/nnue_tiny.nnue %s", tools_dir(), back, half, data);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    double factor = 0;
    long used = 0;
    while (fgets(line, sizeof line, p)) {
        const char *at = strstr(line, "factor ");
        if (at && strstr(line, "held-out records")) {
            factor = atof(at + 7);
            used = atol(line);
        }
    }
    assert_int_equal(pclose(p), 0);
    print_message("fitted factor %.4f over %ld held-out records\n", factor, used);
    assert_true(used > 50);
    assert_true(factor > 1.85 && factor < 2.15); // the halved weights were rounded to integers

    static Nnue tiny, h, b;
    static Position pos;
    char err[128];
    assert_true(nnue_load(&tiny, "tests/data/nnue_tiny.nnue", err, sizeof err));
    assert_true(nnue_load(&h, half, err, sizeof err));
    assert_true(nnue_load(&b, back, err, sizeof err));
    FILE *f = fopen("tests/data/nnue_sample.bin", "rb");
    assert_non_null(f);
    PackedPos rec;
    UnpackedPos u;
    double off_half = 0, off_back = 0, size = 0;
    int n = 0;
    for (; n < 500 && fread(&rec, sizeof rec, 1, f) == 1; n++) {
        assert_true(packpos_unpack(&rec, &u) && pos_set_fen(&pos, u.fen, false, err, sizeof err));
        Accumulator acc;
        int pieces = popcount(pos_occupied(&pos));
        nnue_refresh(&tiny, &pos, &acc);
        double e = nnue_evaluate(&tiny, &acc, pos.side, pieces);
        nnue_refresh(&h, &pos, &acc);
        off_half += fabs(nnue_evaluate(&h, &acc, pos.side, pieces) - 0.5 * e);
        nnue_refresh(&b, &pos, &acc);
        off_back += fabs(nnue_evaluate(&b, &acc, pos.side, pieces) - e);
        size += fabs(e);
    }
    fclose(f);
    print_message("mean |eval| %.1f cp; halved %.2f cp off half of it, back %.2f cp off it\n", size / n,
                  off_half / n, off_back / n);
    assert_true(size / n > 20);
    // The tiny network's output weights are small integers, so halving them rounds each
    // by up to half a step: a few cp; unscaled, the halved one would be 50 % off.
    assert_true(off_half < 0.08 * size && off_back < 0.15 * size);
    nnue_free(&tiny);
    nnue_free(&h);
    nnue_free(&b);

    assert_int_not_equal(sh("%s/netscale %s tests/data/nnue_tiny.nnue -f 0 2>/dev/null", tools_dir(), back), 0);
    assert_int_not_equal(sh("%s/netscale %s tests/data/nnue_tiny.nnue -f 2x 2>/dev/null", tools_dir(), back), 0);
    assert_int_not_equal(sh("%s/netscale %s tests/data/missing.nnue -f 2 2>/dev/null", tools_dir(), back), 0);
    // No held-out record in 3,000 (the first held-out block starts at record 3,968).
    assert_int_not_equal(sh("%s/netscale %s %s -r tests/data/nnue_tiny.nnue tests/data/nnue_sample.bin 2>/dev/null",
                            tools_dir(), back, half),
                         0);
    sh("rm -f %s %s %s", half, back, data);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packpos_round_trip),
        cmocka_unit_test(test_datagen_resume),
        cmocka_unit_test(test_datagen_network),
        cmocka_unit_test(test_datagen_network_name),
        cmocka_unit_test(test_datagen_output),
        cmocka_unit_test(test_train_command),
        cmocka_unit_test(test_train_king_buckets),
        cmocka_unit_test(test_train_held_out_per_file),
        cmocka_unit_test(test_tune_round_trip),
        cmocka_unit_test(test_tune_lowers_error),
        cmocka_unit_test(test_pgn2data),
        cmocka_unit_test(test_distill),
        cmocka_unit_test(test_netscale),
    };
    return cmocka_run_group_tests_name("tools", tests, group_setup, group_teardown);
}
