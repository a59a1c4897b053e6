# Outpost build. `make` builds ./outpost for this machine; see README.md for the targets.
CC      ?= cc
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
OPT     ?= -O3 -DNDEBUG -flto
ALL_CFLAGS = $(OPT) $(STD) $(WARN) $(ARCHFLAGS) -Iinclude -Ibuild/gen -pthread $(CFLAGS)
LIBS    := -pthread -lm

SRC       := $(wildcard src/*.c)
LIB_SRC   := $(filter-out src/main.c,$(SRC))
TEST_SRC  := $(wildcard tests/test_*.c)
TEST_BINS := $(patsubst tests/%.c,build/tests/%,$(TEST_SRC))

.PHONY: all clean debug sanitize test test-long bench perft-bench deps

all: $(EXE)

# The slider magics are searched once at build time (tools/gen_magics, fixed seed).
MAGICS := build/gen/magics.inc
$(MAGICS): tools/gen_magics.c src/magic.c include/magic.h include/bitboard.h include/types.h
	@mkdir -p build/gen
	$(CC) -O2 $(STD) $(WARN) -Iinclude tools/gen_magics.c src/magic.c -o build/gen/gen_magics
	build/gen/gen_magics > $@.tmp && mv $@.tmp $@

$(EXE): $(SRC) $(wildcard include/*.h) $(MAGICS)
	$(CC) $(ALL_CFLAGS) $(SRC) -o $@ $(LDFLAGS) $(LIBS)

# Asserts on (pos_is_ok after every make/unmake), address and undefined-behaviour checks.
debug:
	$(MAKE) EXE=outpost-debug OPT="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer" outpost-debug

sanitize: debug

# Tests link the library sources (not main.c) with cmocka. The engine binary is built
# too, since the UCI tests drive it through pipes.
build/tests/%: tests/%.c tests/test_util.h $(LIB_SRC) $(wildcard include/*.h) $(MAGICS)
	@mkdir -p build/tests
	$(CC) -O2 -g -DNDEBUG $(STD) $(WARN) $(ARCHFLAGS) -Iinclude -Ibuild/gen -Itests -pthread $(CFLAGS) $< $(LIB_SRC) -o $@ -lcmocka $(LIBS)

deps:
	@bash tests/check_deps.sh

test: deps $(EXE) $(TEST_BINS)
	@bash tests/run_tests.sh $(TEST_BINS)

test-long: deps $(EXE) $(TEST_BINS)
	@OUTPOST_LONG=1 bash tests/run_tests.sh $(TEST_BINS)

bench: $(EXE)
	./$(EXE) bench

perft-bench: $(EXE)
	bash bench/perft_speed.sh ./$(EXE)

clean:
	rm -rf build $(EXE) outpost-debug *.gcda
