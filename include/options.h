// SPDX-License-Identifier: MIT
// The UCI options: one table gives each option's name, type, default, range and the
// function that applies it; `uci`'s listing, setoption's checks and messages and the
// engine's start-up values all come from it.
#ifndef OUTPOST_OPTIONS_H
#define OUTPOST_OPTIONS_H

#include <stdbool.h>

#include "engine.h"

// Gives every spin and check option its default value (Use NNUE excepted: it follows
// whether the built-in network loaded). False when the hash table cannot be allocated.
bool options_init(Engine *e);

// Prints one `option name ...` line per option, in the table's order.
void options_print(Engine *e);

// setoption: name as sent (matched without regard to case), the value's words joined by
// single spaces (value; "" when there is none, has_value false) and the text after
// `value` exactly as sent (raw, for file names; NULL when there is none). A value out of
// range or of the wrong type is refused with an info string and the option keeps its value.
void options_set(Engine *e, const char *name, bool has_value, const char *value, const char *raw);

#endif
