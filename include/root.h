// SPDX-License-Identifier: MIT
// The search driver (root.c): what a search does from `go` to `bestmove` around the tree
// search of search.h, for one thread or a pool of them.
#ifndef OUTPOST_ROOT_H
#define OUTPOST_ROOT_H

#include "search.h"

// Searches t->pos within t->limits, printing info lines and, if t->opts.print_bestmove,
// exactly one bestmove line at the end. Blocks until done; for infinite or ponder
// searches that means until ctl->stop (or ponderhit). With a pool of more than one
// thread (t->pool), t must be its main thread: the helpers search too and the best
// result of all threads is played. info nodes and nps count every thread.
void root_search(SearchThread *t);

// A fixed-node search of t->pos for tools and self-play (t set up without output and
// with opts.print_bestmove false): no new iteration after `soft` nodes, a stop at `hard`.
// Returns the best move and sets *score (side to move's view).
Move root_search_nodes(SearchThread *t, uint64_t soft, uint64_t hard, Score *score);

#endif
