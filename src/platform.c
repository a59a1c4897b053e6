// SPDX-License-Identifier: MIT
// POSIX and Windows implementations of platform.h; the only file with #ifdef _WIN32.
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE // MAP_ANONYMOUS and MADV_HUGEPAGE (glibc)
#include "platform.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _WIN32
#include <malloc.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

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

bool platform_map_file(const char *path, MappedFile *mf)
{
    *mf = (MappedFile){NULL, 0, NULL};
#ifdef _WIN32
    HANDLE file = CreateFileA(path, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING,
                              FILE_FLAG_RANDOM_ACCESS, NULL);
    if (file == INVALID_HANDLE_VALUE)
        return false;
    LARGE_INTEGER size;
    if (!GetFileSizeEx(file, &size) || size.QuadPart <= 0) {
        CloseHandle(file);
        return false;
    }
    HANDLE mapping = CreateFileMappingA(file, NULL, PAGE_READONLY, 0, 0, NULL);
    CloseHandle(file); // the mapping keeps the file open
    if (!mapping)
        return false;
    void *data = MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0);
    if (!data) {
        CloseHandle(mapping);
        return false;
    }
    *mf = (MappedFile){data, (uint64_t)size.QuadPart, mapping};
#else
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || st.st_size <= 0) {
        close(fd);
        return false;
    }
    void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    close(fd); // the mapping keeps the file open
    if (data == MAP_FAILED)
        return false;
    *mf = (MappedFile){data, (uint64_t)st.st_size, NULL};
#endif
    return true;
}

void platform_unmap_file(MappedFile *mf)
{
    if (!mf->data)
        return;
#ifdef _WIN32
    UnmapViewOfFile((void *)mf->data);
    CloseHandle(mf->handle);
#else
    munmap((void *)mf->data, (size_t)mf->size);
#endif
    *mf = (MappedFile){NULL, 0, NULL};
}

void *platform_calloc_aligned(size_t size, size_t align)
{
    size = (size + align - 1) / align * align; // C17's aligned_alloc wants a multiple
#ifdef _WIN32
    void *p = _aligned_malloc(size, align);
#else
    void *p = aligned_alloc(align, size);
#endif
    if (p)
        memset(p, 0, size);
    return p;
}

void platform_free_aligned(void *p)
{
#ifdef _WIN32
    _aligned_free(p);
#else
    free(p);
#endif
}

#if !defined(_WIN32) && defined(MAP_ANONYMOUS)
enum { HUGE_PAGE = 2 * 1024 * 1024 };

static size_t large_length(size_t size) { return (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE; }

void *platform_alloc_large(size_t size)
{
    if (size == 0 || size > SIZE_MAX - 2 * HUGE_PAGE)
        return NULL;
    // Map a huge page more than needed, keep the aligned part, give back the ends.
    size_t len = large_length(size);
    char *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *p = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    size_t tail = (size_t)(raw + len + HUGE_PAGE - (p + len));
    if (tail)
        munmap(p + len, tail);
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE); // a hint: where refused, the pages stay small
#endif
    return p;
}

void platform_free_large(void *p, size_t size)
{
    if (p)
        munmap(p, large_length(size));
}
#else
void *platform_alloc_large(size_t size) { return size ? calloc(1, size) : NULL; }

void platform_free_large(void *p, size_t size)
{
    (void)size;
    free(p);
}
#endif

const char *platform_missing_cpu_feature(void)
{
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    // Newest first, so the name given is the one that decides which build to pick.
    __builtin_cpu_init();
#ifdef __AVX512F__
    if (!__builtin_cpu_supports("avx512f"))
        return "AVX-512F";
#endif
#ifdef __AVX512BW__
    if (!__builtin_cpu_supports("avx512bw"))
        return "AVX-512BW";
#endif
#ifdef __AVX2__
    if (!__builtin_cpu_supports("avx2"))
        return "AVX2";
#endif
#ifdef __BMI2__
    if (!__builtin_cpu_supports("bmi2"))
        return "BMI2";
#endif
#ifdef __POPCNT__
    if (!__builtin_cpu_supports("popcnt"))
        return "POPCNT";
#endif
#endif
    return NULL;
}
