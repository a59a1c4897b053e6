// SPDX-License-Identifier: MIT
// The job thread: runs each long command (a search, go perft, bench) so that input is
// always read at once. Contract: at most one job runs; `stop` and `ponderhit` only flip
// atomics in SearchControl; a new job stops the running one first; anything that touches
// the TT or the search state waits until the thread has been joined, and option changes
// made meanwhile wait in the Engine's pending fields until then.
#ifndef OUTPOST_JOB_H
#define OUTPOST_JOB_H

#include "engine.h"

// Starts `job` on the job thread with the control flags reset (the caller has set up the
// main thread's position, limits and options, or e->job_depth). Without a thread the job
// runs here: a search limited to depth 1, or the perft or bench asked for.
void job_start(Engine *e, JobKind job, bool pondering);

// Waits for a running job to end; stop_it tells it to stop first (a search then prints
// its bestmove at once).
void job_wait(Engine *e, bool stop_it);

// Makes room for a new job: the running one, if any, is stopped (a search prints its
// bestmove), joined, and deferred option changes are applied. why names the command.
void job_stop_running(Engine *e, const char *why);

// Joins a job that has already finished, then applies deferred changes when none runs.
void job_reap_finished(Engine *e);

// True while a started job has not finished.
bool job_running(Engine *e);

#endif
