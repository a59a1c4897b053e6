// SPDX-License-Identifier: MIT
// The engine's output helpers and the one engine action every layer above needs.
#include "engine.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void engine_write_line(void *ctx, const char *line)
{
    Engine *e = ctx;
    pthread_mutex_lock(&e->out_lock);
    fputs(line, e->out);
    fputc('\n', e->out);
    fflush(e->out);
    pthread_mutex_unlock(&e->out_lock);
}

void engine_say(Engine *e, const char *fmt, ...)
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
    engine_write_line(e, line);
}

void engine_debug(Engine *e, const char *fmt, ...)
{
    if (!e->debug)
        return;
    char line[1024];
    int n = snprintf(line, sizeof line, "info string debug: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
    va_end(ap);
    engine_write_line(e, line);
}

bool engine_parse_int(const char *s, int64_t *out)
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

void engine_set_tb_path(Engine *e, const char *path)
{
    int n_wdl, n_dtz;
    int largest = tb_set_path(e->tb, path, &n_wdl, &n_dtz);
    if (!*path || !strcmp(path, "<empty>"))
        engine_debug(e, "SyzygyPath cleared");
    else if (n_wdl + n_dtz == 0)
        engine_say(e, "info string Syzygy: no tables found in '%s'", path);
    else
        engine_say(e, "info string Syzygy: %d WDL and %d DTZ tables found, up to %d pieces", n_wdl, n_dtz, largest);
}
