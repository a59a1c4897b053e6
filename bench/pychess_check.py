#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Drives ./outpost through python-chess's chess.engine, the layer lichess-bot talks to
# engines through, the way a bot uses it: option parsing and configure, play with clocks,
# pondering with ponderhit and stop, analyse with MultiPV and WDL, mates, positions without
# a legal move, Chess960 castling, quit. Any warning or error python-chess logs about the
# engine's output counts as a fault.
#
# python-chess is not a dependency of the project: install it (pip install chess, or
# PYTHONPATH pointing at a checkout of github.com/niklasf/python-chess).
# Usage: bench/pychess_check.py [games] [base_seconds] [increment_seconds]
#        (defaults 4 games at 3+0.03; the engine is ./outpost)
import logging
import os
import random
import sys
import time

try:
    import chess
    import chess.engine
except ImportError:
    sys.exit("python-chess not found: pip install chess, or set PYTHONPATH to a checkout of it")

ENGINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "outpost")
OPENINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "openings.epd")


class FaultCounter(logging.Handler):
    """Counts every warning or error python-chess logs (unexpected output, parse errors)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


class SentCounter(logging.Handler):
    """Counts the ponderhit and stop commands python-chess sends, to show both ponder outcomes ran."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.counts = {"ponderhit": 0, "stop": 0}

    def emit(self, record):
        message = record.getMessage()
        for command in self.counts:
            if message.endswith("<< " + command):
                self.counts[command] += 1


faults = FaultCounter()
sent = SentCounter()
logging.getLogger("chess.engine").addHandler(faults)
logging.getLogger("chess.engine").addHandler(sent)
logging.getLogger("chess.engine").setLevel(logging.DEBUG)
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def open_engine():
    return chess.engine.SimpleEngine.popen_uci([ENGINE], timeout=10)


def check_options(engine):
    check(engine.id.get("name", "").startswith("Outpost"), f"id name: {engine.id.get('name')!r}")
    want = ["Hash", "Threads", "MultiPV", "Move Overhead", "Ponder", "Clear Hash", "UCI_Chess960", "UCI_ShowWDL"]
    check(all(name in engine.options for name in want), "options declared: " + ", ".join(sorted(engine.options)))
    for opt in engine.options.values():
        if opt.type == "spin":
            check(opt.min <= opt.default <= opt.max, f"spin {opt.name} default {opt.default} in [{opt.min}, {opt.max}]")
    # What lichess-bot's config usually sets.
    engine.configure({"Hash": 32, "Threads": 1, "Move Overhead": 50, "UCI_ShowWDL": True})


def check_analysis(engine):
    board = chess.Board()
    infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3)
    check(len(infos) == 3, f"analyse multipv 3 returns {len(infos)} lines")
    firsts = [info["pv"][0] for info in infos if info.get("pv")]
    check(len(set(firsts)) == 3 and all(m in board.legal_moves for m in firsts), "three distinct legal first moves")
    check(all("wdl" in info and "score" in info for info in infos), "every line has score and wdl")

    # Scholar's mate (Qxf7# is mate in 1) and a mate in 2 from tests/data/mates_short.epd.
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    info = engine.analyse(board, chess.engine.Limit(depth=6))
    check(info["score"].white() == chess.engine.Mate(1), f"mate in 1 scored {info['score'].white()}")
    board = chess.Board("8/1p3Qb1/p5pk/P1p1p1p1/1P2P1P1/2P1N2n/5P1P/4qB1K w - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(depth=8))
    check(info["score"].white() == chess.engine.Mate(2), f"mate in 2 scored {info['score'].white()}")
    board = chess.Board("k7/8/1K6/8/8/8/8/7R b - - 0 1")
    info = engine.analyse(board, chess.engine.Limit(depth=10))
    check(info["score"].relative.mate() is not None and info["score"].relative.mate() < 0,
          f"side being mated gets a negative mate: {info['score'].relative}")

    with engine.analysis(chess.Board(), chess.engine.Limit(time=0.3)) as analysis:
        n = sum(1 for _ in analysis)
    check(n > 0 and analysis.info.get("pv"), f"analysis stream ({n} info updates) ends with a pv")


def check_no_legal_move(engine):
    mated = chess.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    result = engine.play(mated, chess.engine.Limit(time=0.1))
    check(result.move is None, f"checkmated side plays {result.move}")
    stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    result = engine.play(stalemate, chess.engine.Limit(time=0.1))
    check(result.move is None, f"stalemated side plays {result.move}")


def play_game(engines, board, base, inc, game_id):
    """One game on a simulated clock; engines[0] plays White and ponders. Returns (fault or None, castlings)."""
    clocks = [base, base]
    castles = 0
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        side = 0 if board.turn == chess.WHITE else 1
        limit = chess.engine.Limit(white_clock=clocks[0], black_clock=clocks[1], white_inc=inc, black_inc=inc)
        start = time.perf_counter()
        try:
            result = engines[side].play(board, limit, game=game_id, ponder=(side == 0), info=chess.engine.INFO_ALL)
        except chess.engine.EngineError as err:
            return f"engine error: {err}", castles
        used = time.perf_counter() - start
        clocks[side] -= used
        if clocks[side] < 0:
            return f"time forfeit at ply {board.ply()} ({used:.3f} s used)", castles
        clocks[side] += inc
        if result.move is None or result.move not in board.legal_moves:
            return f"illegal or no move {result.move} at {board.fen()}", castles
        castles += board.is_castling(result.move)
        board.push(result.move)
    return None, castles


def check_games(n_games, base, inc):
    with open(OPENINGS) as f:
        openings = [line.split(" bm ")[0].split(";")[0].strip() for line in f if line.strip()]
    rng = random.Random(1)
    white, black = open_engine(), open_engine()
    for engine in (white, black):
        engine.configure({"Hash": 16, "Move Overhead": 50})
    try:
        for g in range(n_games):
            chess960 = g % 2 == 1
            if chess960:
                board = chess.Board.from_chess960_pos(rng.randrange(960))
            else:
                fen = rng.choice(openings)
                board = chess.Board(fen if len(fen.split()) >= 6 else fen + " 0 1")
            fault, castles = play_game([white, black], board, base, inc, f"game{g}")
            outcome = board.outcome(claim_draw=True)
            result = outcome.result() if outcome else "*"
            check(fault is None, f"game {g + 1} ({'Chess960' if chess960 else 'standard'}): {board.ply()} plies, "
                  f"{result}, {castles} castlings{'' if fault is None else ', ' + fault}")
    finally:
        for engine in (white, black):
            start = time.perf_counter()
            engine.quit()
            check(time.perf_counter() - start < 2, "quit while pondering or idle returns at once")


def main():
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    base = float(sys.argv[2]) if len(sys.argv) > 2 else 3.0
    inc = float(sys.argv[3]) if len(sys.argv) > 3 else 0.03
    if not os.access(ENGINE, os.X_OK):
        sys.exit(f"{ENGINE} not found: run make first")
    print(f"python-chess {chess.__version__}, engine {ENGINE}")
    engine = open_engine()
    try:
        check_options(engine)
        check_analysis(engine)
        check_no_legal_move(engine)
    finally:
        engine.quit()
    check_games(n_games, base, inc)
    check(sent.counts["ponderhit"] > 0 and sent.counts["stop"] > 0,
          f"ponder outcomes exercised: {sent.counts['ponderhit']} ponderhit, {sent.counts['stop']} stop")
    check(not faults.messages, f"python-chess logged {len(faults.messages)} warnings/errors")
    for message in faults.messages[:20]:
        print("   ", message)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
