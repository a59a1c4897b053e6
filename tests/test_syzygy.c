// SPDX-License-Identifier: MIT
// The Syzygy prober against positions probed by an independent implementation
// (tests/data/oracle.syzygy.epd: 1,000 positions, WDL and DTZ from python-chess's
// prober): those whose tables are in tests/data/syzygy (a small set) always, all of them
// against every 3-4 piece table in ../shared/data/syzygy (skipped, and named, where that
// is missing). Also: SyzygyPath parsing, missing and corrupt files, the root ranking, the
// options through UCI, and play that must keep every win.
// tests/data/syzygy holds 12 of the public Syzygy tables (200 KB), copied unchanged from
// ../shared/data/syzygy (python-chess's repository, data/syzygy/regular; SOURCES.md there);
// tests/data/oracle.syzygy.epd is ../shared/data/oracle.syzygy.epd.
#define _POSIX_C_SOURCE 200809L
#include "test_util.h"

#include <sys/stat.h>
#include <unistd.h>

#include "engine_pipe.h"
#include "move.h"
#include "movegen.h"
#include "syzygy.h"

static const char *const SMALL_DIR = "tests/data/syzygy";
static const char *const SHARED_DIR = "../shared/data/syzygy";
enum { N_SMALL_DTZ = 383 };

static int messages;
static char last_message[512];
static void count_message(void *ctx, const char *line)
{
    (void)ctx;
    messages++;
    snprintf(last_message, sizeof last_message, "%s", line);
}

typedef struct {
    char fen[256];
    int wdl, dtz;
} OracleLine;

static OracleLine oracle[1000];
static int n_oracle;

static void load_oracle(void)
{
    if (n_oracle)
        return;
    FILE *f = open_data("oracle.syzygy.epd");
    char line[256];
    while (n_oracle < 1000 && fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        assert_non_null(semi);
        *semi = '\0';
        OracleLine *o = &oracle[n_oracle++];
        snprintf(o->fen, sizeof o->fen, "%s", line);
        assert_int_equal(sscanf(semi + 1, " wdl %d; dtz %d;", &o->wdl, &o->dtz), 2);
    }
    fclose(f);
    assert_int_equal(n_oracle, 1000);
}

static bool dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

// Probes every oracle position whose tables the path holds (the DTZ probe may need more
// tables than the WDL one, such as those after a promotion); returns how many WDL probes
// answered, *n_dtz how many DTZ probes did.
static int check_oracle(const char *path, int *n_wdl_ok, int *n_dtz, int *n_dtz_ok)
{
    load_oracle();
    Syzygy *tb = tb_create(count_message, NULL);
    assert_non_null(tb);
    int files_wdl, files_dtz;
    assert_int_equal(tb_set_path(tb, path, &files_wdl, &files_dtz), 4);
    static Position pos;
    int checked = 0;
    *n_wdl_ok = *n_dtz = *n_dtz_ok = 0;
    for (int i = 0; i < n_oracle; i++) {
        char err[128];
        assert_true(pos_set_fen(&pos, oracle[i].fen, false, err, sizeof err));
        Key key = pos_key(&pos);
        int wdl, dtz;
        if (!tb_probe_wdl(tb, &pos, &wdl))
            continue; // a table the small set lacks
        checked++;
        assert_int_equal(pos_key(&pos), key); // the position is restored
        bool dtz_ok = tb_probe_dtz(tb, &pos, &dtz);
        if (wdl == oracle[i].wdl)
            (*n_wdl_ok)++;
        else
            print_message("WDL %s: %d, expected %d\n", oracle[i].fen, wdl, oracle[i].wdl);
        *n_dtz += dtz_ok;
        if (dtz_ok && dtz == oracle[i].dtz)
            (*n_dtz_ok)++;
        else if (dtz_ok)
            print_message("DTZ %s: %d (%s), expected %d\n", oracle[i].fen, dtz, dtz_ok ? "ok" : "failed", oracle[i].dtz);
    }
    tb_free(tb);
    return checked;
}

static void test_oracle_small_set(void **state)
{
    (void)state;
    int wdl_ok, n_dtz, dtz_ok;
    int checked = check_oracle(SMALL_DIR, &wdl_ok, &n_dtz, &dtz_ok);
    print_message("small set: WDL %d/%d exact, DTZ %d/%d exact\n", wdl_ok, checked, dtz_ok, n_dtz);
    // The oracle positions whose tables are in tests/data/syzygy (and, for DTZ, those
    // of every position after a zeroing move).
    assert_int_equal(checked, 396);
    assert_int_equal(wdl_ok, checked);
    assert_int_equal(n_dtz, N_SMALL_DTZ);
    assert_int_equal(dtz_ok, n_dtz);
}

static void test_oracle_all_tables(void **state)
{
    (void)state;
    if (!dir_exists(SHARED_DIR)) {
        print_message("%s is missing: the full oracle check needs every 3-4 piece table\n", SHARED_DIR);
        skip();
    }
    int wdl_ok, n_dtz, dtz_ok;
    int checked = check_oracle(SHARED_DIR, &wdl_ok, &n_dtz, &dtz_ok);
    print_message("all tables: %d positions, WDL %d/1000 exact, DTZ %d/1000 exact\n", checked, wdl_ok, dtz_ok);
    assert_int_equal(checked, 1000);
    assert_int_equal(n_dtz, 1000);
    assert_int_equal(wdl_ok, 1000);
    assert_int_equal(dtz_ok, 1000);
}

static void test_paths(void **state)
{
    (void)state;
    Syzygy *tb = tb_create(count_message, NULL);
    int n_wdl, n_dtz;
    assert_int_equal(tb_set_path(tb, "", &n_wdl, &n_dtz), 0);
    assert_int_equal(n_wdl + n_dtz, 0);
    assert_int_equal(tb_set_path(tb, "<empty>", &n_wdl, &n_dtz), 0);
    assert_int_equal(tb_set_path(tb, "/nonexistent/outpost", &n_wdl, &n_dtz), 0);
    assert_int_equal(tb_largest(tb), 0);
    // Directories in a list, empty parts ignored; a table in two directories counts once.
#ifdef _WIN32
    const char *list = "/nonexistent;;tests/data/syzygy;tests/data/syzygy";
#else
    const char *list = "/nonexistent::tests/data/syzygy:tests/data/syzygy";
#endif
    assert_int_equal(tb_set_path(tb, list, &n_wdl, &n_dtz), 4);
    assert_int_equal(n_wdl, 12);
    assert_int_equal(n_dtz, 12);
    static Position pos;
    char err[128];
    assert_true(pos_set_fen(&pos, "8/8/8/8/2k5/8/3Q4/6K1 w - - 0 1", false, err, sizeof err));
    int wdl;
    assert_true(tb_probe_wdl(tb, &pos, &wdl));
    assert_int_equal(wdl, TB_WIN);
    // A table not in the set: the probe fails; king against king needs none.
    assert_true(pos_set_fen(&pos, "8/8/8/8/2k5/8/3B4/4N1K1 w - - 0 1", false, err, sizeof err));
    assert_false(tb_probe_wdl(tb, &pos, &wdl));
    assert_true(pos_set_fen(&pos, "8/8/8/8/2k5/8/8/6K1 w - - 0 1", false, err, sizeof err));
    assert_true(tb_probe_wdl(tb, &pos, &wdl));
    assert_int_equal(wdl, TB_DRAW);
    tb_free(tb);
}

// Writes data to dir/name.
static void write_file(const char *dir, const char *name, const uint8_t *data, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

static size_t read_file(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

// Corrupt copies of KRvK and KPvK: a probe either fails (saying so once per file) or
// returns a value in range; it never crashes (the sanitizer build checks the reads).
static void test_corrupt_files(void **state)
{
    (void)state;
    char dir[] = "/tmp/outpost_tb_XXXXXX";
    assert_non_null(mkdtemp(dir));
    static uint8_t good[2][16384], bad[16384];
    size_t size[2] = {read_file("tests/data/syzygy/KRvK.rtbw", good[0], sizeof good[0]),
                      read_file("tests/data/syzygy/KPvK.rtbw", good[1], sizeof good[1])};
    const char *names[2] = {"KRvK.rtbw", "KPvK.rtbw"};
    const char *fens[2][3] = {
        {"8/8/8/8/2k5/8/3R4/6K1 w - - 0 1", "8/8/8/8/2k5/8/3R4/6K1 b - - 0 1", "R7/8/8/8/8/8/2k5/K7 b - - 0 1"},
        {"8/8/8/8/2k5/8/3P4/6K1 w - - 0 1", "8/8/8/8/2k5/8/3P4/6K1 b - - 0 1", "8/1P6/8/8/8/8/2k5/K7 b - - 0 1"},
    };
    uint64_t seed = 12345;
    int failed = 0, answered = 0;
    for (int round = 0; round < 200; round++) {
        int which = round & 1;
        size_t n = size[which];
        memcpy(bad, good[which], n);
        int kind = round % 8;
        if (kind == 0) {
            n = (size_t)(seed % n); // truncated
        } else if (kind == 1) {
            bad[seed % 4] ^= 0x40; // the magic
        } else {
            for (int k = 0; k < kind; k++) { // a few bytes anywhere, most in the header
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                size_t at = (seed >> 33) % (k & 1 ? n : (n < 200 ? n : 200));
                bad[at] = (uint8_t)(seed >> 20);
            }
        }
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        write_file(dir, names[which], bad, n);
        Syzygy *tb = tb_create(count_message, NULL);
        int n_wdl, n_dtz;
        tb_set_path(tb, dir, &n_wdl, &n_dtz);
        messages = 0;
        static Position pos;
        for (int i = 0; i < 3; i++) {
            char err[128];
            assert_true(pos_set_fen(&pos, fens[which][i], false, err, sizeof err));
            int wdl;
            if (tb_probe_wdl(tb, &pos, &wdl)) {
                answered++;
                assert_true(wdl >= TB_LOSS && wdl <= TB_WIN);
            } else {
                failed++;
            }
        }
        assert_true(messages <= 1); // once per file, however often it is probed
        if (messages)
            assert_non_null(strstr(last_message, "info string Syzygy table"));
        tb_free(tb);
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[which]);
        unlink(path);
    }
    print_message("corrupt tables: %d probes failed, %d answered\n", failed, answered);
    assert_true(failed > 50); // truncation and a bad magic at least
    rmdir(dir);
}

// The root ranking keeps wins: in KQvK the moves that neither hang the queen nor
// stalemate rank as wins, alike; a stalemating move ranks as a draw.
static void test_root_ranking(void **state)
{
    (void)state;
    Syzygy *tb = tb_create(count_message, NULL);
    int n_wdl, n_dtz;
    tb_set_path(tb, SMALL_DIR, &n_wdl, &n_dtz);
    static Position pos;
    char err[128];
    // Qb6 stalemates, as does any king move.
    assert_true(pos_set_fen(&pos, "k7/2Q5/8/8/8/8/8/6K1 w - - 0 1", false, err, sizeof err));
    MoveList list;
    gen_moves(&pos, &list, GEN_ALL);
    int rank[MAX_MOVES];
    Score score[MAX_MOVES];
    assert_true(tb_rank_root_moves(tb, &pos, list.moves, list.count, true, true, rank, score));
    int wins = 0, best = rank[0];
    for (int i = 0; i < list.count; i++)
        best = rank[i] > best ? rank[i] : best;
    for (int i = 0; i < list.count; i++) {
        pos_make_move(&pos, list.moves[i]);
        bool stalemate = gen_is_stalemate(&pos);
        pos_unmake_move(&pos, list.moves[i]);
        if (stalemate) {
            assert_int_equal(rank[i], 0);
            assert_int_equal(score[i], 0);
        }
        if (rank[i] == best) {
            wins++;
            assert_true(score[i] >= SCORE_TB_WIN_IN_MAX);
        }
    }
    assert_true(wins >= 10);
    // WDL ranking alone (without DTZ tables) agrees on which moves win.
    assert_true(pos_set_fen(&pos, "k7/2Q5/8/8/8/8/8/6K1 w - - 0 1", false, err, sizeof err));
    gen_moves(&pos, &list, GEN_ALL);
    int rank_wdl[MAX_MOVES];
    assert_true(tb_rank_root_moves(tb, &pos, list.moves, list.count, false, true, rank_wdl, score));
    for (int i = 0; i < list.count; i++)
        assert_int_equal(rank_wdl[i] == (1 << 18), rank[i] == best);
    // With the fifty-move counter near its end only the fastest conversions stay wins.
    assert_true(pos_set_fen(&pos, "8/8/8/8/2k5/8/3R4/6K1 w - - 90 80", false, err, sizeof err));
    gen_moves(&pos, &list, GEN_ALL);
    assert_true(tb_rank_root_moves(tb, &pos, list.moves, list.count, true, true, rank, score));
    for (int i = 0; i < list.count; i++)
        assert_true(rank[i] < (1 << 18)); // no move mates within 10 plies: no sure win
    tb_free(tb);
}

/* ---------------------------------------------------------------- through UCI */

static void start_engine(const char *path)
{
    engine_start();
    send("uci");
    expect("uciok", DEFAULT_WAIT_MS);
    const char *threads = getenv("OUTPOST_TEST_THREADS");
    if (threads && atoi(threads) > 1)
        send("setoption name Threads value %d", atoi(threads));
    send("setoption name SyzygyPath value %s", path);
}

static int64_t info_field(const char *line, const char *name)
{
    const char *p = strstr(line, name);
    return p ? strtoll(p + strlen(name), NULL, 10) : -1;
}

// Searches fen (NULL: the position set before) to depth 6; the last info line is in
// last_info.
static void search_to_depth_6(const char *fen)
{
    if (fen)
        send("position fen %s", fen);
    send("go depth 6");
    expect("bestmove", DEFAULT_WAIT_MS);
}

// The options: what SyzygyPath finds, a tablebase score and tbhits at the root, probes
// in the search under SyzygyProbeLimit, and a path set during a search.
static void test_uci_options(void **state)
{
    (void)state;
    start_engine("/nonexistent/outpost");
    expect("info string Syzygy: no tables found in '/nonexistent/outpost'", DEFAULT_WAIT_MS);
    send("setoption name SyzygyPath value %s", SMALL_DIR);
    expect("info string Syzygy: 12 WDL and 12 DTZ tables found, up to 4 pieces", DEFAULT_WAIT_MS);
    send("setoption name SyzygyProbeDepth value 0");
    expect("info string SyzygyProbeDepth must be an integer from 1 to 100", DEFAULT_WAIT_MS);
    send("setoption name SyzygyProbeLimit value 8");
    expect("info string SyzygyProbeLimit must be an integer from 0 to 7", DEFAULT_WAIT_MS);
    // KRvK, won: a tablebase score (centipawns in the band below mates) and tbhits.
    search_to_depth_6("8/8/8/8/2k5/8/3R4/6K1 w - - 0 1");
    assert_non_null(strstr(last_info, " score cp "));
    assert_true(info_field(last_info, " score cp ") >= SCORE_TB_WIN_IN_MAX);
    assert_true(info_field(last_info, " tbhits ") > 0);
    // KRvKR, drawn: 0.
    search_to_depth_6("r7/8/8/8/2k5/8/3R4/6K1 w - - 0 1");
    assert_int_equal(info_field(last_info, " score cp "), 0);
    // With the limit at 3 pieces the root of KRvKR is not probed, but the search probes
    // after the rooks are traded.
    send("setoption name SyzygyProbeLimit value 3");
    search_to_depth_6("8/8/8/8/2k5/8/2rR4/6K1 w - - 0 1");
    assert_true(info_field(last_info, " tbhits ") > 0);
    send("setoption name SyzygyProbeLimit value 0");
    search_to_depth_6(NULL);
    assert_int_equal(info_field(last_info, " tbhits "), 0);
    // A new path during a search is used from the next one.
    send("go infinite");
    send("setoption name SyzygyPath value <empty>");
    expect("info string SyzygyPath: in use from the next search", DEFAULT_WAIT_MS);
    send("stop");
    expect("bestmove", DEFAULT_WAIT_MS);
    send("setoption name SyzygyProbeLimit value 7");
    send("position fen 8/8/8/8/2k5/8/3R4/6K1 w - - 0 1");
    send("go depth 4");
    expect("bestmove", DEFAULT_WAIT_MS);
    assert_int_equal(info_field(last_info, " tbhits "), 0);
    engine_quit();
}

// True if the position occurred twice before since the last zeroing move.
static bool threefold(const Position *pos)
{
    int count = 0, end = pos_state(pos)->rule50 < pos->st_index ? pos_state(pos)->rule50 : pos->st_index;
    for (int i = 4; i <= end; i += 2)
        count += pos_state_back(pos, i)->key == pos_key(pos);
    return count >= 2;
}

// The engine playing both sides of won positions at a short movetime must keep each win:
// after every move the winner still wins by the tables (the fifty-move rule counted: the
// position before the winner's move wins within it), there is no threefold repetition
// and no fifty-move draw, until the winner mates or 100 plies have been played.
// With the small set (small_set), only pawnless positions without a capture, since a
// capture lets the probe answer without the position's own table, which the set may lack
// (KQvKN with Kxb7), and the engine may well keep the win another way.
static int play_out(const char *path, int max_positions, int movetime, bool small_set)
{
    load_oracle();
    Syzygy *tb = tb_create(count_message, NULL);
    int n_wdl, n_dtz;
    tb_set_path(tb, path, &n_wdl, &n_dtz);
    start_engine(path);
    expect("info string Syzygy:", DEFAULT_WAIT_MS);
    static Position pos;
    static char cmd[8192];
    int games = 0, mates = 0;
    for (int i = 0; i < n_oracle && games < max_positions; i++) {
        if (oracle[i].wdl != TB_WIN || (small_set && strpbrk(oracle[i].fen, "pP")))
            continue;
        char err[128];
        assert_true(pos_set_fen(&pos, oracle[i].fen, false, err, sizeof err));
        MoveList noisy = {.count = 0};
        if (small_set)
            gen_moves(&pos, &noisy, GEN_NOISY);
        int wdl;
        if (noisy.count > 0 || !tb_probe_wdl(tb, &pos, &wdl))
            continue; // a capture to skip, or a table the set lacks
        games++;
        int winner = pos.side;
        int n = snprintf(cmd, sizeof cmd, "position fen %s moves", oracle[i].fen);
        send("ucinewgame");
        for (int ply = 0; ply < 100; ply++) {
            send("%s", cmd);
            send("go movetime %d", movetime);
            expect("bestmove", DEFAULT_WAIT_MS);
            char mv[16];
            sscanf(eng.line + 9, "%15s", mv);
            Move m = move_from_uci(&pos, mv);
            if (m == MOVE_NONE)
                fail_msg("%s: illegal bestmove %s after %d plies", oracle[i].fen, mv, ply);
            pos_make_move(&pos, m);
            n += snprintf(cmd + n, sizeof cmd - (size_t)n, " %s", mv);
            if (gen_is_checkmate(&pos)) {
                assert_int_equal(pos.side, winner ^ 1);
                mates++;
                break;
            }
            if (!tb_probe_wdl(tb, &pos, &wdl))
                fail_msg("%s: no table for the position after %d plies (%s)", oracle[i].fen, ply + 1, cmd);
            if ((pos.side == winner ? wdl : -wdl) != TB_WIN || threefold(&pos) || pos_state(&pos)->rule50 >= 100)
                fail_msg("%s: the win slipped after %d plies (%s): wdl %d for the side to move, fifty-move "
                         "counter %d", oracle[i].fen, ply + 1, cmd, wdl, pos_state(&pos)->rule50);
        }
    }
    engine_quit();
    tb_free(tb);
    print_message("%d won positions played out, %d mated within 100 plies, no win lost\n", games, mates);
    return games;
}

static void test_conversion(void **state)
{
    (void)state;
    if (long_tests() && dir_exists(SHARED_DIR))
        assert_int_equal(play_out(SHARED_DIR, 1000, 10, false), 306);
    else
        assert_int_equal(play_out(SMALL_DIR, 8, 10, true), 8);
}

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_small_set),
        cmocka_unit_test(test_oracle_all_tables),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_corrupt_files),
        cmocka_unit_test(test_root_ranking),
        cmocka_unit_test(test_uci_options),
        cmocka_unit_test(test_conversion),
    };
    return cmocka_run_group_tests_name("syzygy", tests, NULL, NULL);
}
