// SPDX-License-Identifier: MIT
// The few things POSIX and Windows do differently, in one place: reading a line of any
// length, a monotonic clock, sleeping, seeking in large files, mapping a file into
// memory read-only and aligned allocation. Threads are POSIX
// threads on both (winpthreads, linked statically, on Windows).
#ifndef OUTPOST_PLATFORM_H
#define OUTPOST_PLATFORM_H

#include <stdbool.h>
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

// A file mapped read-only into memory (the endgame tablebases).
typedef struct {
    const uint8_t *data; // NULL when not mapped
    uint64_t size;
    void *handle;        // Windows: the mapping object
} MappedFile;

// Maps the whole of the file at path; false (and *mf cleared) when it cannot be opened,
// is empty or cannot be mapped.
bool platform_map_file(const char *path, MappedFile *mf);
// Unmaps a file mapped by platform_map_file (a cleared MappedFile is left alone).
void platform_unmap_file(MappedFile *mf);

// Zeroed memory of `size` bytes aligned to `align` (a power of two, at most 4096), or NULL;
// released with platform_free_aligned only (Windows keeps such blocks apart).
void *platform_calloc_aligned(size_t size, size_t align);
void platform_free_aligned(void *p);

// Zeroed memory for a large table (the transposition table), or NULL: on Linux 2 MiB
// aligned anonymous pages that the kernel is asked to back with huge pages (a random
// probe then misses the TLB far less often), zeroed by the system as they are first
// touched; elsewhere calloc. Released with platform_free_large and the same size only.
void *platform_alloc_large(size_t size);
void platform_free_large(void *p, size_t size);

// The first instruction-set extension this build was compiled for (-march) that the CPU
// running it lacks, as a name ("AVX2", "AVX-512BW", ...), or NULL when it has them all or
// the check does not apply (not x86, or a compiler without the CPU builtins). Called first
// in main, so that a build for a newer CPU says why it cannot run instead of crashing on an
// illegal instruction.
const char *platform_missing_cpu_feature(void);

#endif
