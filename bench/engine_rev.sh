#!/usr/bin/env bash
# Prints the short commit the engine is built from, with "+dirty" when the engine's sources
# (src, include, tools, nets, Makefile) differ from it; docs and results do not count. Used by the
# match and speed scripts to name their runs.
set -eu
cd "$(dirname "$0")/.."
echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src include tools nets Makefile || echo +dirty)"
