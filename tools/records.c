// SPDX-License-Identifier: MIT
// Reading training records (include/packpos.h) from a datagen folder or a file.
#define _POSIX_C_SOURCE 200809L // stat
#include "records.h"

#include <stdio.h>
#include <sys/stat.h>

typedef struct {
    const char *tool;
    bool (*fn)(const PackedPos *rec, size_t i, void *ctx);
    void *ctx;
} RecordWalk;

static bool walk_file(const char *path, const RecordWalk *w)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open %s\n", w->tool, path);
        return false;
    }
    PackedPos buf[1024]; // 32 KB a read
    size_t i = 0, n;
    bool ok = true;
    while (ok && (n = fread(buf, sizeof buf[0], sizeof buf / sizeof buf[0], f)) > 0)
        for (size_t k = 0; ok && k < n; k++, i++)
            ok = w->fn(&buf[k], i, w->ctx);
    if (ok && ferror(f)) {
        fprintf(stderr, "%s: cannot read %s\n", w->tool, path);
        ok = false;
    }
    fclose(f);
    return ok;
}

bool records_for_each(const char *path, const char *tool, bool (*fn)(const PackedPos *rec, size_t i, void *ctx),
                     void *ctx)
{
    RecordWalk w = {tool, fn, ctx};
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return walk_file(path, &w);
    for (int k = 0;; k++) {
        char bin[1024];
        snprintf(bin, sizeof bin, "%s/data-%d.bin", path, k);
        if (stat(bin, &st) != 0)
            return k > 0 || (fprintf(stderr, "%s: no data-0.bin in %s\n", tool, path), false);
        if (!walk_file(bin, &w))
            return false;
    }
}
