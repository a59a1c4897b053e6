// SPDX-License-Identifier: MIT
// The engine's version, written in this one place. A release commit sets it to "X.Y" and
// is tagged vX.Y (the release workflow refuses a tag that differs); between releases it
// reads "X.Y-dev", X.Y being the coming release, and the build appends its commit.
#ifndef OUTPOST_VERSION_H
#define OUTPOST_VERSION_H

#define OUTPOST_VERSION "1.0-dev"

// The Makefile passes OUTPOST_COMMIT (git's short hash, "+dirty" when the tree differs
// from it) to development builds made in a git checkout; other builds name no commit.
#ifdef OUTPOST_COMMIT
#define OUTPOST_FULL_VERSION OUTPOST_VERSION "-" OUTPOST_COMMIT
#else
#define OUTPOST_FULL_VERSION OUTPOST_VERSION
#endif

#endif
