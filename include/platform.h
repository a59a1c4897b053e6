// SPDX-License-Identifier: MIT
// The few things POSIX and Windows do differently, in one place: reading a line of any
// length, a monotonic clock, sleeping, and seeking in large files. Threads are POSIX
// threads on both (winpthreads, linked statically, on Windows).
#ifndef OUTPOST_PLATFORM_H
#define OUTPOST_PLATFORM_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

// Reads one line of any length into *line (grown as needed, *cap its size), newline
// included when there was one. Returns its length, or -1 at end of input. An embedded
// NUL ends the line early for the reader, as with getline.
long platform_read_line(char **line, size_t *cap, FILE *in);

// Milliseconds from a monotonic clock.
int64_t platform_now_ms(void);

void platform_sleep_ms(int ms);

// Seeks to byte `offset` of a file of any size; 0 on success.
int platform_seek(FILE *f, uint64_t offset);

#endif
