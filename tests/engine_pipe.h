// SPDX-License-Identifier: MIT
// Test helpers that run the engine binary behind pipes, as a GUI does: start it, send
// lines, read lines with a deadline, expect a line, wait for its exit. Header-only, for
// the cmocka tests that drive the binary (test_uci.c, test_stress.c).
#ifndef OUTPOST_ENGINE_PIPE_H
#define OUTPOST_ENGINE_PIPE_H

#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

enum { LINE_MAX_LEN = 65536, DEFAULT_WAIT_MS = 20000 };

typedef struct {
    pid_t pid;
    int to_engine;
    int from_engine;
    char buf[1 << 20];
    size_t len;
    char line[LINE_MAX_LEN];
} Engine;

static Engine eng;

static inline int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

// The engine under test: $OUTPOST_ENGINE if set (sanitizer builds), else ./outpost.
static inline const char *engine_path(void)
{
    const char *p = getenv("OUTPOST_ENGINE");
    return p && *p ? p : "./outpost";
}

static inline void engine_start(void)
{
    int in[2], out[2];
    assert_int_equal(pipe(in), 0);
    assert_int_equal(pipe(out), 0);
    eng.pid = fork();
    assert_true(eng.pid >= 0);
    if (eng.pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execl(engine_path(), engine_path(), (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    eng.to_engine = in[1];
    eng.from_engine = out[0];
    eng.len = 0;
}

static inline void send_raw(const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(eng.to_engine, p, n);
        assert_true(w > 0);
        p += w;
        n -= (size_t)w;
    }
}

static inline void send(const char *fmt, ...)
{
    char buf[LINE_MAX_LEN];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    assert_true(n >= 0 && n < (int)sizeof buf - 1);
    buf[n++] = '\n';
    send_raw(buf, (size_t)n);
}

// Reads the next line into eng.line; returns false on timeout or end of output.
static inline bool read_line(int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(eng.buf, '\n', eng.len);
        if (nl) {
            size_t n = (size_t)(nl - eng.buf);
            assert_true(n < LINE_MAX_LEN);
            memcpy(eng.line, eng.buf, n);
            eng.line[n] = '\0';
            // Lines end in LF alone and are single-spaced.
            assert_null(strchr(eng.line, '\r'));
            assert_null(strstr(eng.line, "  "));
            memmove(eng.buf, nl + 1, eng.len - n - 1);
            eng.len -= n + 1;
            return true;
        }
        int left = (int)(deadline - now_ms());
        if (left <= 0)
            return false;
        struct pollfd p = {eng.from_engine, POLLIN, 0};
        if (poll(&p, 1, left) <= 0)
            continue;
        ssize_t r = read(eng.from_engine, eng.buf + eng.len, sizeof eng.buf - eng.len);
        if (r <= 0)
            return false;
        eng.len += (size_t)r;
    }
}

static inline bool starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

// Reads until a line starting with prefix; the lines before it are kept in `seen` (the
// last info line before it in last_info). Fails on timeout.
static char last_info[LINE_MAX_LEN];
static inline void expect(const char *prefix, int timeout_ms)
{
    last_info[0] = '\0';
    int64_t deadline = now_ms() + timeout_ms;
    while (read_line((int)(deadline - now_ms()))) {
        if (starts_with(eng.line, prefix))
            return;
        if (starts_with(eng.line, "info ") && !starts_with(eng.line, "info string"))
            snprintf(last_info, sizeof last_info, "%s", eng.line);
    }
    fail_msg("no line starting with '%s' within %d ms", prefix, timeout_ms);
}

// True if no line starting with prefix arrives within ms.
static inline bool quiet_for(const char *prefix, int ms)
{
    int64_t deadline = now_ms() + ms;
    while (now_ms() < deadline && read_line((int)(deadline - now_ms())))
        if (starts_with(eng.line, prefix))
            return false;
    return true;
}

static inline int engine_wait_exit(int timeout_ms)
{
    int64_t deadline = now_ms() + timeout_ms;
    int status;
    while (now_ms() < deadline) {
        pid_t r = waitpid(eng.pid, &status, WNOHANG);
        if (r == eng.pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    kill(eng.pid, SIGKILL);
    waitpid(eng.pid, &status, 0);
    return -1;
}

static inline void engine_quit(void)
{
    send("quit");
    close(eng.to_engine);
    assert_int_equal(engine_wait_exit(5000), 0);
    close(eng.from_engine);
}

#endif
