// SPDX-License-Identifier: MIT
// Reading training records: the one walker over a datagen folder's files (or one file)
// that every tool reading records shares.
#ifndef OUTPOST_RECORDS_H
#define OUTPOST_RECORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "packpos.h"

// Calls fn on each record of path, a datagen folder (its data-0.bin, data-1.bin, ...
// until one is missing) or a file, with the record's index in its file (from 0, as
// nn_held_out counts); false as soon as fn is, or when a file cannot be read or a folder
// has no data-0.bin (said on stderr after `tool`'s name).
bool records_for_each(const char *path, const char *tool, bool (*fn)(const PackedPos *rec, size_t i, void *ctx),
                     void *ctx);

#endif
