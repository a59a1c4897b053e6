// SPDX-License-Identifier: MIT
// Reading PGN games: header lines, then the movetext, tokenised and replayed on a board.
#include "pgn.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "move.h"
#include "platform.h"

enum { MAX_MOVETEXT = 1 << 20 }; // bytes of one game's movetext

void pgn_open(PgnReader *r, FILE *f) { *r = (PgnReader){.f = f}; }

void pgn_close(PgnReader *r)
{
    free(r->pending);
    free(r->buf);
    *r = (PgnReader){0};
}

static bool fail(char *err, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
    return false;
}

bool pgn_comment_score(const char *c, Score *score, int *depth)
{
    while (isspace((unsigned char)*c))
        c++;
    int sign = *c == '-' ? -1 : 1;
    if (*c == '+' || *c == '-')
        c++;
    char *end;
    if (*c == 'M') { // mate in plies, the mover's view
        long plies = strtol(c + 1, &end, 10);
        if (end == c + 1 || plies < 0 || plies > MAX_PLY)
            return false;
        *score = sign > 0 ? mate_in((int)plies) : mated_in((int)plies);
    } else {
        if (!isdigit((unsigned char)*c))
            return false;
        double pawns = strtod(c, &end);
        double cp = sign * pawns * 100.0;
        double cap = SCORE_TB_WIN_IN_MAX - 1;
        *score = (Score)lround(cp > cap ? cap : cp < -cap ? -cap : cp);
    }
    if (*end != '/' || !isdigit((unsigned char)end[1]))
        return false;
    long d = strtol(end + 1, &end, 10);
    *depth = d > MAX_PLY ? MAX_PLY : (int)d;
    return true;
}

// The value of a header line `[Tag "Value"]` whose tag is `tag`, copied to out; false
// for another tag or a malformed line.
static bool header_value(const char *line, const char *tag, char *out, size_t size)
{
    size_t n = strlen(tag);
    if (line[0] != '[' || strncmp(line + 1, tag, n) || line[1 + n] != ' ')
        return false;
    const char *q = strchr(line + 1 + n, '"');
    const char *e = q ? strrchr(q + 1, '"') : NULL;
    if (!q || !e)
        return false;
    size_t len = (size_t)(e - q - 1) < size - 1 ? (size_t)(e - q - 1) : size - 1;
    memcpy(out, q + 1, len);
    out[len] = '\0';
    return true;
}

static int result_of(const char *s)
{
    return !strcmp(s, "1-0") ? 2 : !strcmp(s, "0-1") ? 0 : !strcmp(s, "1/2-1/2") ? 1 : -1;
}

// Reads one line into r->buf without its line end; false at the end of input.
static bool read_line(PgnReader *r)
{
    if (platform_read_line(&r->buf, &r->cap, r->f) < 0)
        return false;
    r->line++;
    size_t len = strlen(r->buf);
    while (len && (r->buf[len - 1] == '\r' || r->buf[len - 1] == '\n'))
        r->buf[--len] = '\0';
    return true;
}

static bool is_header(const char *line) { return line[0] == '['; }

static bool append(char **text, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 2 > *cap) {
        size_t want = (*len + n + 2) * 2;
        char *bigger = realloc(*text, want);
        if (!bigger)
            return false;
        *text = bigger;
        *cap = want;
    }
    memcpy(*text + *len, s, n);
    *len += n;
    (*text)[(*len)++] = '\n';
    (*text)[*len] = '\0';
    return true;
}

// The movetext replayed on the board from g->fen: moves and their comments into g.
static bool replay(const char *text, PgnGame *g, char *err, size_t size)
{
    static _Thread_local Position pos;
    char fen_err[128];
    if (!pos_set_fen(&pos, g->fen[0] ? g->fen : START_FEN, g->chess960, fen_err, sizeof fen_err))
        return fail(err, size, "bad FEN header (%s)", fen_err);
    g->n = 0;
    const char *p = text;
    while (*p) {
        if (isspace((unsigned char)*p)) {
            p++;
        } else if (*p == '{') { // a comment: the score of the move before it
            const char *end = strchr(p, '}');
            if (!end)
                return fail(err, size, "comment not closed");
            char comment[256];
            size_t len = (size_t)(end - p - 1) < sizeof comment - 1 ? (size_t)(end - p - 1) : sizeof comment - 1;
            memcpy(comment, p + 1, len);
            comment[len] = '\0';
            PgnMove *last = g->n ? &g->moves[g->n - 1] : NULL;
            if (last && !last->scored)
                last->scored = pgn_comment_score(comment, &last->score, &last->depth);
            p = end + 1;
        } else if (*p == ';') { // to the end of the line
            p += strcspn(p, "\n");
        } else if (*p == '(') { // a variation, possibly nested, with comments inside
            int depth = 0;
            for (; *p; p++) {
                if (*p == '{') {
                    const char *end = strchr(p, '}');
                    if (!end)
                        return fail(err, size, "comment not closed");
                    p = end;
                } else if (*p == '(') {
                    depth++;
                } else if (*p == ')' && --depth == 0) {
                    p++;
                    break;
                }
            }
            if (depth)
                return fail(err, size, "variation not closed");
        } else if (*p == '$') { // NAG
            p++;
            p += strspn(p, "0123456789");
        } else {
            char tok[64];
            size_t len = strcspn(p, " \t\r\n{}();");
            if (len == 0) { // a stray '}' or ')'
                p++;
                continue;
            }
            if (len >= sizeof tok)
                return fail(err, size, "token of %zu characters at ply %d", len, g->n + 1);
            memcpy(tok, p, len);
            tok[len] = '\0';
            p += len;
            if (result_of(tok) >= 0 || !strcmp(tok, "*")) {
                if (g->result < 0)
                    g->result = result_of(tok);
                continue;
            }
            char *san = tok + strspn(tok, "0123456789"); // a move number: "12." or "12...Nf3"
            if (san != tok && *san != '.')
                return fail(err, size, "unreadable token '%s' at ply %d", tok, g->n + 1);
            san += strspn(san, ".");
            san[strcspn(san, "!?")] = '\0';
            if (!*san)
                continue;
            if (g->n == PGN_MAX_PLIES)
                return fail(err, size, "more than %d plies", PGN_MAX_PLIES);
            Move m = move_from_san(&pos, san);
            if (m == MOVE_NONE)
                return fail(err, size, "illegal or unreadable move '%s' at ply %d", san, g->n + 1);
            g->moves[g->n++] = (PgnMove){.move = m};
            pos_make_move(&pos, m);
            pos_trim_history(&pos);
        }
    }
    return true;
}

int pgn_next_game(PgnReader *r, PgnGame *g, char *err, size_t err_size)
{
    *g = (PgnGame){.result = -1};
    char header_result[16] = "", variant[32] = "";
    bool any = false, in_moves = false;
    char *text = NULL;
    size_t len = 0, cap = 0;
    int depth = 0; // open braces in the movetext, so that a comment line starting '[' stays movetext
    bool ok = true;
    err[0] = '\0';
    for (;;) {
        const char *line;
        if (r->pending) {
            if (!r->buf || r->cap < strlen(r->pending) + 1) {
                free(r->buf);
                r->cap = strlen(r->pending) + 1;
                r->buf = malloc(r->cap);
                if (!r->buf) {
                    ok = fail(err, err_size, "out of memory");
                    break;
                }
            }
            strcpy(r->buf, r->pending);
            free(r->pending);
            r->pending = NULL;
        } else if (!read_line(r)) {
            break;
        }
        line = r->buf;
        if (is_header(line) && depth == 0) {
            if (in_moves) { // the next game's first header
                r->pending = malloc(strlen(line) + 1);
                if (r->pending)
                    strcpy(r->pending, line);
                break;
            }
            any = true;
            header_value(line, "Result", header_result, sizeof header_result);
            header_value(line, "FEN", g->fen, sizeof g->fen);
            header_value(line, "Variant", variant, sizeof variant);
            continue;
        }
        if (!in_moves && line[strspn(line, " \t")] == '\0')
            continue; // blank lines between headers and moves
        in_moves = any = true;
        for (const char *c = line; *c; c++)
            depth += *c == '{' ? 1 : *c == '}' && depth > 0 ? -1 : 0;
        if (ok && (len + strlen(line) > MAX_MOVETEXT || !append(&text, &len, &cap, line)))
            ok = fail(err, err_size, "movetext longer than %d bytes", MAX_MOVETEXT);
    }
    if (!any) {
        free(text);
        return 0;
    }
    g->chess960 = !strcasecmp(variant, "chess960") || !strcasecmp(variant, "fischerandom");
    g->result = result_of(header_result);
    if (ok)
        ok = replay(text ? text : "", g, err, err_size);
    free(text);
    return ok ? 1 : -1;
}
