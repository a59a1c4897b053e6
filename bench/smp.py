#!/usr/bin/env python3
# Lazy SMP measurements (issue 32): the bench positions searched to a fixed depth with
# Threads=1 and Threads=N, position by position in the same run (each pair back to back, so
# a change in machine load hits both), through UCI. Prints each position's time-to-depth
# ratio, their median, and the nodes-per-second ratio over all positions.
# Usage: bench/smp.py [depth] [threads] [engine]   (defaults: 13, 2, ./outpost)
# Measure on an idle machine with at least `threads` free cores.
import re
import statistics
import subprocess
import sys
import time

depth = int(sys.argv[1]) if len(sys.argv) > 1 else 13
threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
engine = sys.argv[3] if len(sys.argv) > 3 else "./outpost"
fens = re.findall(r'"([^"]+)"', open("src/bench_positions.inc").read())


class Engine:
    def __init__(self, n):
        self.p = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send(f"setoption name Threads value {n}")
        self.send("setoption name Hash value 64")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        last = ""
        for line in self.p.stdout:
            if line.startswith(prefix):
                return last
            if line.startswith("info depth"):
                last = line
        raise SystemExit("engine ended early")

    def search(self, fen):
        self.send("ucinewgame")
        self.send("position fen " + fen)
        self.send("isready")
        self.wait("readyok")
        t0 = time.monotonic()
        self.send(f"go depth {depth}")
        info = self.wait("bestmove")
        ms = (time.monotonic() - t0) * 1000
        nodes = int(re.search(r" nodes (\d+)", info).group(1))
        return ms, nodes

    def quit(self):
        self.send("quit")
        self.p.wait()


one, many = Engine(1), Engine(threads)
ratios, t1, tn, n1, nn = [], 0.0, 0.0, 0, 0
for i, fen in enumerate(fens):
    a_ms, a_nodes = one.search(fen)
    b_ms, b_nodes = many.search(fen)
    ratios.append(a_ms / max(b_ms, 1e-3))
    t1, tn, n1, nn = t1 + a_ms, tn + b_ms, n1 + a_nodes, nn + b_nodes
    print(f"position {i + 1:2d}: Threads=1 {a_ms:8.0f} ms {a_nodes:9d} nodes; Threads={threads} {b_ms:8.0f} ms "
          f"{b_nodes:9d} nodes; time ratio {ratios[-1]:.2f}", flush=True)
one.quit()
many.quit()
print(f"depth {depth}, {len(fens)} positions: median time-to-depth ratio (Threads=1 / Threads={threads}) "
      f"{statistics.median(ratios):.2f}; total time {t1 / 1000:.1f} s vs {tn / 1000:.1f} s")
print(f"nps: Threads=1 {n1 / t1 * 1000:.0f}, Threads={threads} {nn / tn * 1000:.0f}, ratio {(nn / tn) / (n1 / t1):.2f}")
