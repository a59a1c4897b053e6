// SPDX-License-Identifier: MIT
// POSIX and Windows implementations of platform.h; the only file with #ifdef _WIN32.
#define _POSIX_C_SOURCE 200809L
#include "platform.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

long platform_read_line(char **line, size_t *cap, FILE *in)
{
    // A character at a time: UCI input is small, and unlike fgets this keeps a line with
    // an embedded NUL apart from the next one.
    size_t len = 0;
    int c = EOF;
    while ((c = getc(in)) != EOF) {
        if (len + 2 > *cap) {
            size_t grown = *cap ? *cap * 2 : 256;
            char *p = realloc(*line, grown);
            if (!p)
                return -1;
            *line = p;
            *cap = grown;
        }
        (*line)[len++] = (char)c;
        if (c == '\n')
            break;
    }
    if (len == 0)
        return -1;
    (*line)[len] = '\0';
    return (long)len;
}

int64_t platform_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void platform_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int platform_seek(FILE *f, uint64_t offset)
{
#ifdef _WIN32
    return _fseeki64(f, (long long)offset, SEEK_SET);
#else
    return fseeko(f, (off_t)offset, SEEK_SET);
#endif
}
