// SPDX-License-Identifier: MIT
// Tests of the tuning tools (build/tools, or $OUTPOST_TOOLS): datagen writes well-formed
// labelled quiet positions; tune with no epochs writes src/weights.c back unchanged (the
// layout contract between weights.h, the tuner and the table); a few epochs lower the
// error.
#define _POSIX_C_SOURCE 200809L // popen, getpid
#include "test_util.h"

#include <unistd.h>

#include "position.h"

static char data_path[64], weights_path[64];

static const char *tools_dir(void)
{
    const char *d = getenv("OUTPOST_TOOLS");
    return d ? d : "build/tools";
}

static int group_setup(void **state)
{
    (void)state;
    snprintf(data_path, sizeof data_path, "build/test_tools_%d.txt", (int)getpid());
    snprintf(weights_path, sizeof weights_path, "build/test_tools_%d.c", (int)getpid());
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/datagen tests/data/openings.epd %s 4 2000 5 2>/dev/null", tools_dir(), data_path);
    return system(cmd) == 0 ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    remove(data_path);
    remove(weights_path);
    return 0;
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
    assert_true(lines >= 40); // four games
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

int main(void)
{
    init_tables();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_datagen_output),
        cmocka_unit_test(test_tune_round_trip),
        cmocka_unit_test(test_tune_lowers_error),
    };
    return cmocka_run_group_tests_name("tools", tests, group_setup, group_teardown);
}
