// SPDX-License-Identifier: MIT
// The genfens command: argument checks, the EPD book, and one vetted opening per line.
#include "genfens.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "openings.h"
#include "platform.h"
#include "rng.h"
#include "root.h"

enum {
    GENFENS_MAX = 1000000,  // openings per command
    BOOK_DRAWS = 1000,      // book lines drawn in a row without a usable position: give up
    GENFENS_HASH_MB = 2,    // the vetting searches are 5,000 nodes
};

typedef struct {
    char *text;    // the whole file, lines NUL-terminated in place
    char **lines;  // its non-blank lines
    size_t n;
} EpdBook;

static void say(OutputFn out, void *ctx, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    out(ctx, line);
}

static void book_free(EpdBook *b)
{
    free(b->text);
    free(b->lines);
    memset(b, 0, sizeof *b);
}

// Reads an EPD file's lines; false (with the reason in err) when it cannot be read or
// holds none.
static bool book_load(EpdBook *b, const char *path, char *err, size_t err_size)
{
    memset(b, 0, sizeof *b);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open book '%s': %s", path, strerror(errno));
        return false;
    }
    size_t cap = 1 << 16, len = 0;
    b->text = malloc(cap + 1);
    for (size_t got; b->text && (got = fread(b->text + len, 1, cap - len, f)) > 0;) {
        len += got;
        if (len < cap)
            continue;
        char *bigger = realloc(b->text, 2 * cap + 1);
        if (!bigger)
            free(b->text);
        b->text = bigger;
        cap *= 2;
    }
    bool read_error = ferror(f);
    fclose(f);
    if (!b->text || read_error) {
        snprintf(err, err_size, "cannot read book '%s'", path);
        book_free(b);
        return false;
    }
    b->text[len] = '\0';
    size_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += b->text[i] == '\n';
    b->lines = malloc(lines * sizeof *b->lines);
    if (!b->lines) {
        snprintf(err, err_size, "no memory for book '%s'", path);
        book_free(b);
        return false;
    }
    for (char *p = b->text, *end; p && *p; p = end ? end + 1 : NULL) {
        end = strchr(p, '\n');
        if (end)
            *end = '\0';
        if (strspn(p, " \t\r") != strlen(p))
            b->lines[b->n++] = p;
    }
    if (b->n == 0) {
        snprintf(err, err_size, "book '%s' holds no position", path);
        book_free(b);
        return false;
    }
    return true;
}

// The position of an EPD line: its first four fields (board, side, castling, en
// passant); false when they are not a legal position with a legal move.
static bool epd_position(const char *line, Position *pos)
{
    char fields[4][100], fen[420], err[128];
    if (sscanf(line, "%99s %99s %99s %99s", fields[0], fields[1], fields[2], fields[3]) != 4)
        return false;
    snprintf(fen, sizeof fen, "%s %s %s %s 0 1", fields[0], fields[1], fields[2], fields[3]);
    return pos_set_fen(pos, fen, false, err, sizeof err) && gen_count_legal(pos) > 0;
}

// Parses a whole token as an unsigned integer of at most max.
static bool parse_count(const char *s, uint64_t max, uint64_t *out)
{
    if (!s || !*s || *s == '-' || *s == '+')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno == ERANGE || v > max)
        return false;
    *out = v;
    return true;
}

// One opening into t->pos: from the start position, or from a random usable line of the
// book followed by a few random plies.
static bool make_opening(SearchThread *t, const EpdBook *book, uint64_t *rng)
{
    if (!book->n)
        return opening_random(t, NULL, OPENING_PLIES, rng);
    static _Thread_local Position start;
    for (int draws = 0; draws < BOOK_DRAWS; draws++) {
        if (!epd_position(book->lines[rng_next(rng) % book->n], &start))
            continue;
        if (opening_random(t, &start, OPENING_BOOK_PLIES, rng))
            return true;
    }
    return false;
}

int genfens_run(const char *command, const Nnue *net, OutputFn out, void *ctx)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", command);
    char *tok[8];
    int n = 0;
    for (char *p = strtok(buf, " \t\r\n"); p && n < 8; p = strtok(NULL, " \t\r\n"))
        tok[n++] = p; // tokens after the sixth are OpenBench's `extra`: none is used
    uint64_t count, seed;
    if (n < 6 || strcmp(tok[0], "genfens") || !parse_count(tok[1], GENFENS_MAX, &count) || count == 0
        || strcmp(tok[2], "seed") || !parse_count(tok[3], UINT64_MAX, &seed) || strcmp(tok[4], "book")) {
        say(out, ctx, "info string genfens: usage: genfens N seed S book <None|FILE> [extra], N from 1 to %d, S an "
                      "unsigned integer",
            GENFENS_MAX);
        return 1;
    }
    EpdBook book = {0};
    char err[600];
    if (strcmp(tok[5], "None") && !book_load(&book, tok[5], err, sizeof err)) {
        say(out, ctx, "info string genfens: %s", err);
        return 1;
    }
    TT tt = {0};
    SearchControl ctl;
    search_control_init(&ctl);
    SearchThread *t = platform_calloc_aligned(sizeof *t, _Alignof(SearchThread));
    if (!t || !tt_resize(&tt, GENFENS_HASH_MB)) {
        say(out, ctx, "info string genfens: out of memory");
        platform_free_aligned(t);
        book_free(&book);
        return 1;
    }
    search_init(t);
    t->tt = &tt;
    t->ctl = &ctl;
    t->nnue = net;
    t->opts = (SearchOptions){.multipv = 1, .print_bestmove = false};
    t->out = search_discard_output;
    int rc = 0;
    for (uint64_t i = 0; i < count; i++) {
        // Each opening from its own generator state and a fresh search: the i-th FEN of
        // a seed is the same whatever N is.
        uint64_t rng = seed ^ (i + 1) * 0xD1B54A32D192ED03ull;
        tt_clear(&tt);
        search_clear(t);
        if (!make_opening(t, &book, &rng)) {
            say(out, ctx, "info string genfens: no playable position found in book '%s'", tok[5]);
            rc = 1;
            break;
        }
        char fen[FEN_MAX];
        pos_to_fen(&t->pos, fen);
        say(out, ctx, "info string genfens %s", fen);
    }
    tt_free(&tt);
    platform_free_aligned(t);
    book_free(&book);
    return rc;
}
