# Outpost build. `make` builds ./outpost for this machine; see README.md for the targets.
CC      ?= cc
HOST_CC ?= cc
EXE     ?= outpost
ARCH    ?= native
STD     := -std=c17
WARN    := -Wall -Wextra -Wshadow -Wmissing-declarations -Wpedantic
ifeq ($(ARCH),native)
  ARCHFLAGS := -march=native
else
  ARCHFLAGS := -march=$(ARCH)
endif
# OPT is the optimisation (debug swaps it); CFLAGS given on the command line are added.
OPT     ?= -O3 -DNDEBUG -flto=auto
# TUNE=1: the named search parameters become UCI spin options (OpenBench's SPSA).
TUNE    ?= 0
ifeq ($(TUNE),1)
  TUNEFLAGS := -DOUTPOST_TUNE
endif
ALL_CFLAGS = $(OPT) $(STD) $(WARN) $(ARCHFLAGS) $(TUNEFLAGS) -Iinclude -Ibuild/gen -pthread $(CFLAGS)
LIBS    := -pthread -lm

SRC       := $(wildcard src/*.c)
LIB_SRC   := $(filter-out src/main.c,$(SRC))
TEST_SRC  := $(wildcard tests/test_*.c)
# Tests build into $(BUILD)/tests with TEST_OPT; `make sanitize` swaps both.
BUILD     ?= build
TEST_OPT  ?= -O2 -g -DNDEBUG
TEST_BINS := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
FUZZ_SRC  := tests/fuzz/fuzz_uci.c tests/fuzz/fuzz_fen.c tests/fuzz/fuzz_move.c tests/fuzz/fuzz_book.c \
             tests/fuzz/fuzz_syzygy.c tests/fuzz/fuzz_pgn.c
# Extra sources per test binary: the replay test runs the fuzz targets.
TEST_EXTRA_test_fuzz_replay := $(FUZZ_SRC) tests/fuzz/fuzz_util.c
TEST_EXTRA_test_train := tools/nnue_train.c tools/records.c
TEST_EXTRA_test_nnue := tools/nnue_train.c

.PHONY: all clean debug sanitize tsan valgrind test test-long bench perft-bench deps fuzz tools windows windows-test \
        release release-test

all: $(EXE)

# The slider magics are searched once at build time (tools/gen_magics, fixed seed).
MAGICS := build/gen/magics.inc
$(MAGICS): tools/gen_magics.c src/magic.c include/magic.h include/bitboard.h include/types.h
	@mkdir -p build/gen
	$(HOST_CC) -O2 $(STD) $(WARN) -Iinclude tools/gen_magics.c src/magic.c -o build/gen/gen_magics
	build/gen/gen_magics > $@.tmp && mv $@.tmp $@

# The network built into the engine (docs/NNUE.md): EVALFILE=/path/to/net (OpenBench's
# variable), else nets/default.nnue when there is one, else none (the hand-written
# evaluation is the default then). Each engine binary has its own generated array, rebuilt
# when EVALFILE names another file or the file changes; tests and tools embed none.
EVALFILE ?= $(firstword $(wildcard nets/default.nnue))
NET_DIR  := build/net/$(subst /,_,$(EXE))
NO_NET   := build/net/none/embedded_net.inc
$(shell mkdir -p $(NET_DIR) && (echo '$(abspath $(EVALFILE))' | cmp -s - $(NET_DIR)/evalfile.txt \
    || echo '$(abspath $(EVALFILE))' > $(NET_DIR)/evalfile.txt))
build/gen/embed_net: tools/embed_net.c include/nnue_format.h
	@mkdir -p build/gen
	$(HOST_CC) -O2 $(STD) $(WARN) -Iinclude $< -o $@
$(NET_DIR)/embedded_net.inc: build/gen/embed_net $(NET_DIR)/evalfile.txt $(EVALFILE)
	build/gen/embed_net $(EVALFILE) > $@.tmp && mv $@.tmp $@
$(NO_NET): build/gen/embed_net
	@mkdir -p $(dir $@)
	build/gen/embed_net > $@.tmp && mv $@.tmp $@

# The version (include/version.h, its one place). A development version ("X.Y-dev") built
# in a git checkout names its commit, "+dirty" when the tree differs from it; the engine
# is rebuilt when that changes. A source archive without git builds as plain X.Y-dev.
VERSION := $(shell sed -n 's/^\#define OUTPOST_VERSION "\(.*\)"/\1/p' include/version.h)
COMMIT  := $(if $(findstring -dev,$(VERSION)),$(shell git rev-parse --short=7 HEAD 2>/dev/null)$(shell \
    git rev-parse --short=7 HEAD >/dev/null 2>&1 && { git diff --quiet HEAD -- 2>/dev/null || echo +dirty; }))
$(shell mkdir -p build/gen && (echo '$(COMMIT)' | cmp -s - build/gen/commit.txt || echo '$(COMMIT)' > build/gen/commit.txt))
COMMIT_FLAG := $(if $(COMMIT),-DOUTPOST_COMMIT='"$(COMMIT)"')

$(EXE): $(SRC) $(wildcard include/*.h) $(MAGICS) $(NET_DIR)/embedded_net.inc build/gen/commit.txt
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(COMMIT_FLAG) -I$(NET_DIR) $(SRC) -o $@ $(LDFLAGS) $(LIBS)

# Windows: a static outpost.exe cross-compiled with mingw-w64 (Debian package
# gcc-mingw-w64-x86-64; its POSIX-threads compiler), portable x86-64-v2 code; build-time
# tools are built with HOST_CC. windows-test runs it under wine (package wine64): the
# bench signature must equal the Linux build's, and a UCI session must answer.
WIN_CC ?= x86_64-w64-mingw32-gcc-posix
windows:
	$(MAKE) CC=$(WIN_CC) EXE=outpost.exe ARCH=x86-64-v2 LDFLAGS=-static outpost.exe

windows-test: windows $(EXE)
	bash tests/windows_test.sh ./outpost.exe ./$(EXE)

# Release archives for every CPU users run (docs/RELEASES.md), built into dist/ by
# tools/release.sh, named by the version and, for a development build, the commit.
# release-test (tests/release_test.sh) runs each archive's engine this machine can run,
# natively, under wine or under qemu-user, and checks its bench signature against this
# machine's own build; one whose instructions this CPU lacks is reported as skipped.
release: $(MAGICS)
	bash tools/release.sh $(VERSION)$(if $(COMMIT),-$(COMMIT))

release-test: release $(EXE)
	bash tests/release_test.sh dist ./$(EXE) $(VERSION)$(if $(COMMIT),-$(COMMIT))

# Asserts on (pos_is_ok after every make/unmake), address and undefined-behaviour checks.
debug:
	$(MAKE) EXE=outpost-debug OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" outpost-debug

# The whole test suite against an ASan+UBSan build of the engine and of the tests
# (asserts on), in build/asan. The engine has no network built in: with asserts on, the
# search rebuilds the network's accumulators from scratch after every move to check the
# incremental ones, which slows it to about 12,000 nodes a second, too slow for the tests'
# exact clock bounds (CI once saw 'go wtime 50 winc 5000' answered in 82 ms). The network
# is checked after the suite instead: this engine loads $(EVALFILE) through EvalFile and its
# `bench 5` must give the node count of the plain engine with the network built in.
SAN_OPT := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
sanitize: deps $(EXE)
	$(MAKE) BUILD=build/asan EXE=build/asan/outpost EVALFILE= OPT="$(SAN_OPT)" TEST_OPT="$(SAN_OPT)" \
	    build/asan/outpost $(patsubst tests/%.c,build/asan/tests/%,$(TEST_SRC))
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 OUTPOST_ENGINE=build/asan/outpost \
	    OUTPOST_TOOLS=build/asan/tools bash tests/run_tests.sh $(patsubst tests/%.c,build/asan/tests/%,$(TEST_SRC))
	$(if $(EVALFILE),ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    bash tests/net_bench_check.sh build/asan/outpost $(EVALFILE) $(abspath $(EXE)) 5,@echo "no network to check")

# ThreadSanitizer: the UCI tests and the random command stress test (OUTPOST_STRESS_COMMANDS,
# default 3000) against a TSan build of the engine, which exits 66 on any data race. Its
# clock bounds get 100 ms of slack: TSan slows the engine between clock checks. The build
# has no network built in: TSan makes the default network's evaluation about a thousand
# times slower (under 2,000 nodes a second), too slow for the tests' clocks;
# test_network_options still searches with two threads on a small network loaded through
# EvalFile.
TSAN_OPT := -O1 -g -fsanitize=thread
tsan: deps $(BUILD)/tests/test_stress $(BUILD)/tests/test_uci
	$(MAKE) EXE=build/tsan/outpost EVALFILE= OPT="$(TSAN_OPT)" build/tsan/outpost
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" OUTPOST_ENGINE=build/tsan/outpost OUTPOST_TIME_SLACK_MS=100 \
	    OUTPOST_TEST_THREAD_COUNTS="1 2 4" \
	    bash tests/run_tests.sh $(BUILD)/tests/test_stress $(BUILD)/tests/test_uci

# valgrind memcheck over bench and a UCI session that resizes Hash; any error or leak fails.
VALGRIND := valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=all --show-leak-kinds=all
# A portable build: valgrind does not decode AVX-512.
valgrind:
	$(MAKE) EXE=build/valgrind/outpost ARCH=x86-64-v2 OPT="-O2 -g -DNDEBUG" build/valgrind/outpost
	$(VALGRIND) build/valgrind/outpost bench 7 > build/valgrind_bench.txt
	tail -n 1 build/valgrind_bench.txt
	$(VALGRIND) build/valgrind/outpost < tests/data/valgrind_session.txt > build/valgrind_session.txt
	@echo "session: $$(grep -c bestmove build/valgrind_session.txt) bestmoves, $$(grep -c readyok build/valgrind_session.txt) readyoks"

# Tests link the library sources (not main.c) with cmocka. The engine binary is built
# too, since the UCI tests drive it through pipes.
$(BUILD)/tests/%: tests/%.c tests/test_util.h tests/engine_pipe.h $(LIB_SRC) $(wildcard include/*.h tools/*.h) tools/nnue_train.c tools/records.c $(MAGICS) $(wildcard tests/fuzz/*) $(NO_NET)
	@mkdir -p $(BUILD)/tests
	$(CC) $(TEST_OPT) $(STD) $(WARN) $(ARCHFLAGS) -Iinclude -Ibuild/gen -I$(dir $(NO_NET)) -Itests -Itools -pthread $(CFLAGS) $< $(TEST_EXTRA_$*) $(LIB_SRC) -o $@ -lcmocka $(LIBS)

# Tools (docs/TUNING.md, docs/NNUE.md): datagen plays self-play games for data, tune fits
# the evaluation's weights to them. Both link the engine's own modules.
# train fits the network (docs/NNUE.md) with the core in tools/nnue_train.c; distill
# labels positions with a network's static evaluation for it; netscale scales a network's
# output to another's. They build
# into $(BUILD)/tools with OPT, so `make sanitize` tests ASan tools in build/asan/tools and
# never replaces the release tools in build/tools.
TOOLS := $(patsubst %,$(BUILD)/tools/%,datagen tune train tbprobe pgn2data distill netscale)
# tools/records.c (the record walker) goes into every tool that reads records.
TOOL_EXTRA_datagen := tools/records.c
TOOL_EXTRA_train := tools/nnue_train.c tools/records.c
TOOL_EXTRA_distill := tools/nnue_train.c tools/records.c
TOOL_EXTRA_netscale := tools/nnue_train.c tools/records.c
tools: $(TOOLS)

$(BUILD)/tools/%: tools/%.c $(LIB_SRC) $(wildcard include/*.h tools/*.h) tools/nnue_train.c tools/records.c $(MAGICS) $(NO_NET)
	@mkdir -p $(BUILD)/tools
	$(CC) $(ALL_CFLAGS) -I$(dir $(NO_NET)) -Itools $< $(TOOL_EXTRA_$*) $(LIB_SRC) -o $@ $(LDFLAGS) $(LIBS)

# The tools' test runs them.
$(BUILD)/tests/test_tools: $(TOOLS)

deps:
	@bash tests/check_deps.sh

# The UCI and stress tests run with Threads 1, 2 and 4; then an engine with a built-in
# network (tests/embed_test.sh).
test: deps $(EXE) $(TEST_BINS)
	@OUTPOST_TEST_THREAD_COUNTS="1 2 4" bash tests/run_tests.sh $(TEST_BINS)
	@bash tests/embed_test.sh ./$(EXE)
	@bash tests/check_layers.sh
	@bash tests/check_readme_options.sh ./$(EXE)
	@bash tests/cli_test.sh ./$(EXE)
	@$(MAKE) -s EXE=build/tune/outpost TUNE=1 build/tune/outpost
	@bash tests/tune_test.sh ./$(EXE) build/tune/outpost
	@if command -v python3 >/dev/null; then python3 bench/spsa.py --selftest && python3 tests/check_workflows.py; \
	 else echo "skipped: bench/spsa.py --selftest and tests/check_workflows.py (python3 is not installed)"; fi

test-long: deps $(EXE) $(TEST_BINS)
	@OUTPOST_LONG=1 OUTPOST_TEST_THREAD_COUNTS="1 2 4" bash tests/run_tests.sh $(TEST_BINS)

bench: $(EXE)
	./$(EXE) bench

perft-bench: $(EXE)
	bash bench/perft_speed.sh ./$(EXE)

# libFuzzer targets (clang from Debian): each runs FUZZ_TIME seconds from the seeds in
# tests/fuzz/corpus, growing a working corpus in build/fuzz. A crash leaves its input in
# build/fuzz/crash-*; copy it to tests/fuzz/regress/<target>/ once fixed.
FUZZ_TIME ?= 60
FUZZ_CC   ?= clang
FUZZ_CFLAGS := -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $(STD) $(WARN) \
               -DOUTPOST_LIBFUZZER -Iinclude -Ibuild/gen -I$(dir $(NO_NET)) -Itests/fuzz -pthread

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.c tests/fuzz/fuzz.h $(LIB_SRC) $(wildcard include/*.h) $(MAGICS) $(NO_NET)
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) $< tests/fuzz/fuzz_util.c $(LIB_SRC) -o $@ -lm

fuzz: build/fuzz/fuzz_uci build/fuzz/fuzz_fen build/fuzz/fuzz_move build/fuzz/fuzz_book build/fuzz/fuzz_syzygy \
      build/fuzz/fuzz_pgn
	@for t in uci fen move book syzygy pgn; do \
	    mkdir -p build/fuzz/corpus/$$t; \
	    echo "== fuzz_$$t for $(FUZZ_TIME) s"; \
	    build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_TIME) -timeout=10 -print_final_stats=1 \
	        -artifact_prefix=build/fuzz/crash-$$t- build/fuzz/corpus/$$t tests/fuzz/corpus/$$t \
	        > build/fuzz/fuzz_$$t.log 2>&1; rc=$$?; \
	    grep -E '^#[0-9]+ *DONE|^stat::number_of_executed_units|^stat::peak_rss' build/fuzz/fuzz_$$t.log; \
	    [ $$rc -eq 0 ] || { tail -n 40 build/fuzz/fuzz_$$t.log; exit 1; }; \
	done

clean:
	rm -rf build dist $(EXE) outpost.exe outpost-debug *.gcda config.json
