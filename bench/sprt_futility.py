#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# How likely an unfinished SPRT from bench/sprt.sh is to end in each verdict if it runs on to
# its game cap: draws the pair-result (pentanomial) probabilities from their posterior given
# the games so far, plays the remaining pairs out at random and applies fastchess's SPRT
# (normalized Elo, the pentanomial model, alpha = beta = 0.05) after every pair.
# Used to stop a run for futility when the verdict that would keep a change is out of reach.
# Usage: bench/sprt_futility.py NAME ELO0 ELO1 MAX_GAMES [simulations]
#        (NAME as for bench/sprt.sh --resume: the runs/sprt file name without its extension)
import math
import os
import random
import subprocess
import sys

BOUND = math.log((1 - 0.05) / 0.05)  # 2.94 for alpha = beta = 0.05
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)


def pentanomial(name):
    """Counts of game pairs (same opening, colours swapped) scoring 0, 1/2, 1, 3/2, 2 for the
    new side, as bench/sprt.sh counts the run's complete pairs."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sprt.sh")
    fields = subprocess.run([script, "--pairs", name], check=True, capture_output=True,
                            text=True).stdout.split()
    ww, wd, wl, dd, ld, ll = (int(x) for x in fields[3:9])
    return [ll, ld, wl + dd, wd, ww]


def llr(counts, elo0, elo1):
    """The normalized-Elo log-likelihood ratio in its usual first-order form (matches fastchess's
    figure to the second decimal at a few hundred pairs)."""
    n = sum(counts)
    mean = sum(s * c for s, c in zip(PAIR_SCORES, counts)) / n
    var = sum(c * (s - mean) ** 2 for s, c in zip(PAIR_SCORES, counts)) / n
    if var <= 0:
        return 0.0
    t = (mean - 0.5) / math.sqrt(var)
    scale = math.sqrt(2) * math.log(10) / 800
    t0, t1 = elo0 * scale, elo1 * scale
    return n * (t1 - t0) * (2 * t - t0 - t1) / 2


def play_out(counts, elo0, elo1, max_pairs, rng):
    """One continuation of the run: 'H0', 'H1' or 'cap'."""
    draws = [rng.gammavariate(c + 1, 1.0) for c in counts]  # a Dirichlet draw of the probabilities
    total = sum(draws)
    cumulative, acc = [], 0.0
    for d in draws:
        acc += d / total
        cumulative.append(acc)
    counts = list(counts)
    while sum(counts) < max_pairs:
        r = rng.random()
        counts[next((i for i, c in enumerate(cumulative) if r <= c), 4)] += 1
        value = llr(counts, elo0, elo1)
        if value >= BOUND:
            return "H1"
        if value <= -BOUND:
            return "H0"
    return "cap"


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: bench/sprt_futility.py NAME ELO0 ELO1 MAX_GAMES [simulations]")
    counts = pentanomial(sys.argv[1])
    elo0, elo1, max_games = float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    sims = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
    if sum(counts) == 0:
        sys.exit("no complete game pair in runs/sprt/" + sys.argv[1] + ".pgn(.gz)")
    rng = random.Random(1)
    outcomes = {"H0": 0, "H1": 0, "cap": 0}
    for _ in range(sims):
        outcomes[play_out(counts, elo0, elo1, max_games // 2, rng)] += 1
    print(f"pentanomial {counts} ({2 * sum(counts)} games in complete pairs), "
          f"LLR {llr(counts, elo0, elo1):.2f} of +/-{BOUND:.2f} for [{elo0:g}, {elo1:g}]")
    print(f"played on to {max_games} games, {sims} times: "
          + ", ".join(f"{k} {v}" for k, v in outcomes.items()))


if __name__ == "__main__":
    main()
