#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# A local SPSA tuner of the named search parameters, OpenBench's rule on one machine:
# each iteration draws a random sign per parameter, plays game pairs between a TUNE=1
# build set to theta + c*delta and one set to theta - c*delta (fastchess from PATH), and
# moves theta by a * (wins - losses) / (c * delta). c and a shrink with the iteration as
# in OpenBench (gamma 0.101, alpha 0.602, A = 10 % of the iterations; c_end and r_end per
# parameter, as `./outpost spsa` prints them). The state (theta, the iteration, the
# games) is written to a JSON file after every iteration, so a run stopped at any point
# resumes where it was; theta is printed as it goes.
#
# Usage:
#   make TUNE=1 EXE=build/tune/outpost && bench/spsa.py run STATE.json [--engine build/tune/outpost]
#       [--params name,name,...] [--iterations 1000] [--pairs 4] [--tc 8+0.08] [--concurrency 2]
#   bench/spsa.py show STATE.json       (theta now, against the start)
#   bench/spsa.py apply STATE.json      (theta, rounded, into include/params.h's defaults)
#   bench/spsa.py --selftest            (the update rule on a noisy synthetic objective)
import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ALPHA, GAMMA, A_RATIO = 0.602, 0.101, 0.1


def schedule(p, k, iterations):
    """c_k and a_k of parameter p at iteration k (1-based), OpenBench's formulas."""
    c_value = p['c_end'] * iterations ** GAMMA
    a_end = p['r_end'] * p['c_end'] ** 2
    a_value = a_end * (A_RATIO * iterations + iterations) ** ALPHA
    c_k = c_value / k ** GAMMA
    a_k = a_value / (A_RATIO * iterations + k) ** ALPHA
    return max(c_k, 0.5 if p['int'] else 0.0), a_k


def perturb(params, k, iterations, rng):
    """The two points of iteration k: theta +- c*delta (integers rounded stochastically)."""
    plus, minus, steps = {}, {}, {}
    for name, p in params.items():
        c, a = schedule(p, k, iterations)
        delta = rng.choice((-1, 1))
        hi, lo = p['value'] + c * delta, p['value'] - c * delta
        if p['int']:
            r = rng.random()
            hi, lo = math.floor(hi + r), math.floor(lo + r)
        plus[name] = min(max(hi, p['min']), p['max'])
        minus[name] = min(max(lo, p['min']), p['max'])
        steps[name] = (c, a, delta)
    return plus, minus, steps


def update(params, steps, wins, losses):
    """theta += a * (wins - losses) / (c * delta), kept in range (wins: theta + c*delta's)."""
    for name, (c, a, delta) in steps.items():
        p = params[name]
        p['value'] = min(max(p['value'] + a * (wins - losses) / (c * delta), p['min']), p['max'])


def selftest():
    """A noisy objective with a known optimum: a game between two points is won by the one
    nearer the optimum with a probability that grows with the difference of their squared
    distances (a logistic Elo-like model). From a start far off, theta must come close."""
    rng = random.Random(7)
    optimum = {'x': 120.0, 'y': 30.0, 'z': 7.0}
    params = {
        'x': {'value': 60.0, 'min': 0, 'max': 300, 'c_end': 15, 'r_end': 0.002, 'int': True},
        'y': {'value': 90.0, 'min': 0, 'max': 200, 'c_end': 10, 'r_end': 0.002, 'int': True},
        'z': {'value': 2.0, 'min': 0, 'max': 20, 'c_end': 1, 'r_end': 0.002, 'int': True},
    }
    scale = {'x': 300.0, 'y': 200.0, 'z': 20.0}

    def strength(point):  # Elo-like: 0 at the optimum, falling with the squared distance
        return -sum(4000.0 * ((point[n] - optimum[n]) / scale[n]) ** 2 for n in point)

    iterations, pairs = 3000, 4
    start = {n: abs(params[n]['value'] - optimum[n]) / scale[n] for n in params}
    for k in range(1, iterations + 1):
        plus, minus, steps = perturb(params, k, iterations, rng)
        e = 1.0 / (1.0 + 10 ** ((strength(minus) - strength(plus)) / 400.0))
        wins = losses = 0
        for _ in range(2 * pairs):
            r = rng.random()
            if r < e * 0.6:  # 40 % of the expected score goes to draws
                wins += 1
            elif r > 1 - (1 - e) * 0.6:
                losses += 1
        update(params, steps, wins, losses)
    end = {n: abs(params[n]['value'] - optimum[n]) / scale[n] for n in params}
    print('selftest: distance to the optimum (share of the range) from %s to %s' % (
        ', '.join('%s %.3f' % kv for kv in start.items()), ', '.join('%s %.3f' % kv for kv in end.items())))
    ok = all(end[n] < 0.05 and end[n] < start[n] / 3 for n in params)
    ok = apply_selftest() and ok
    print('spsa selftest %s' % ('passed' if ok else 'FAILED'))
    return 0 if ok else 1


def apply_selftest():
    """apply: values rounded to nearest, other fields and the backslash column untouched."""
    header = ('#define SEARCH_PARAMS_DEFAULT            \\\n'
              '    {                                    \\\n'
              '        .x = 60, .y = 90, .w = 5,        \\\n'
              '        .z = 2,                          \\\n'
              '    }\n\nint after;\n')
    state = {'params': {'x': {'value': 119.5}, 'y': {'value': 7.49}, 'z': {'value': 12.0}}}
    with tempfile.TemporaryDirectory() as work:
        path, state_path = os.path.join(work, 'params.h'), os.path.join(work, 'state.json')
        open(path, 'w').write(header)
        save(state_path, state)
        apply(argparse.Namespace(state=state_path, header=path))
        got = open(path).read()
    want = header.replace('.x = 60, .y = 90,', '.x = 120, .y = 7,').replace('.z = 2,  ', '.z = 12, ')
    if got != want:
        print('spsa apply selftest FAILED:\n%s\nwanted:\n%s' % (got, want))
        return False
    return True


def spsa_input(engine):
    out = subprocess.run([engine, 'spsa'], capture_output=True, text=True, check=True).stdout
    params = {}
    for line in out.splitlines():
        name, kind, value, lo, hi, c_end, r_end = [f.strip() for f in line.split(',')]
        params[name] = {'value': float(value), 'start': float(value), 'min': float(lo), 'max': float(hi),
                        'c_end': float(c_end), 'r_end': float(r_end), 'int': kind == 'int'}
    return params


def play(engine, plus, minus, pairs, tc, concurrency, seed):
    """Plays `pairs` game pairs, theta+ against theta-; returns (wins, losses) of theta+."""
    if not shutil.which('fastchess'):
        sys.exit('spsa: fastchess is not on PATH (build it from github.com/Disservin/fastchess)')
    book = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'tests', 'data', 'openings.epd')
    with tempfile.TemporaryDirectory() as work:
        pgn = os.path.join(work, 'games.pgn')
        cmd = ['fastchess', '-engine', 'cmd=' + engine, 'name=plus'] + ['option.%s=%d' % kv for kv in plus.items()]
        cmd += ['-engine', 'cmd=' + engine, 'name=minus'] + ['option.%s=%d' % kv for kv in minus.items()]
        cmd += ['-each', 'tc=' + tc, 'option.Hash=16', 'option.Threads=1',
                '-openings', 'file=' + book, 'format=epd', 'order=random', '-srand', str(seed),
                '-rounds', str(pairs), '-games', '2', '-repeat', '-concurrency', str(concurrency),
                '-pgnout', 'file=' + pgn, '-resign', 'movecount=3', 'score=600',
                '-draw', 'movenumber=40', 'movecount=8', 'score=10']
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit('spsa: fastchess failed: %s' % (done.stdout + done.stderr)[-500:])
        wins = losses = 0
        text = open(pgn).read() if os.path.exists(pgn) else ''
        for white, result in re.findall(r'\[White "(\w+)"\].*?\[Result "([^"]+)"\]', text, re.S):
            if result in ('1-0', '0-1'):
                plus_won = (result == '1-0') == (white == 'plus')
                wins, losses = wins + plus_won, losses + (not plus_won)
        return wins, losses


def save(path, state):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)


def run(args):
    if os.path.exists(args.state):
        state = json.load(open(args.state))
        print('resuming %s at iteration %d' % (args.state, state['k']))
    else:
        params = spsa_input(args.engine)
        if args.params:
            params = {n: params[n] for n in args.params.split(',')}
        state = {'engine': args.engine, 'iterations': args.iterations, 'pairs': args.pairs, 'tc': args.tc,
                 'k': 0, 'games': 0, 'params': params}
    rng = random.Random(state['k'] * 7919 + 1)
    while state['k'] < state['iterations']:
        k = state['k'] + 1
        plus, minus, steps = perturb(state['params'], k, state['iterations'], rng)
        wins, losses = play(state['engine'], plus, minus, state['pairs'], state['tc'], args.concurrency, k)
        update(state['params'], steps, wins, losses)
        state['k'], state['games'] = k, state['games'] + 2 * state['pairs']
        save(args.state, state)
        print('iteration %d (%d games): %+d  %s' % (k, state['games'], wins - losses, ' '.join(
            '%s=%.1f' % (n, p['value']) for n, p in state['params'].items())), flush=True)


def show(args):
    state = json.load(open(args.state))
    print('%d of %d iterations, %d games' % (state['k'], state['iterations'], state['games']))
    for n, p in state['params'].items():
        print('%-14s %8.2f  (start %g, range %g..%g)' % (n, p['value'], p['start'], p['min'], p['max']))


def apply(args):
    """Writes theta, each value rounded to the nearest integer, into SEARCH_PARAMS_DEFAULT."""
    state = json.load(open(args.state))
    header = args.header
    lines = open(header).read().split('\n')
    start = next(i for i, line in enumerate(lines) if line.startswith('#define SEARCH_PARAMS_DEFAULT'))
    end = next(i for i in range(start, len(lines)) if not lines[i].rstrip().endswith('\\'))
    found = set()
    for i in range(start + 1, end + 1):
        line = lines[i]
        column = line.rfind('\\') if line.rstrip().endswith('\\') else -1
        for name, p in state['params'].items():
            new_value = int(math.floor(p['value'] + 0.5))
            pattern = r'(\.%s = )(-?\d+)' % re.escape(name)
            match = re.search(pattern, line)
            if match:
                found.add(name)
                if int(match.group(2)) != new_value:
                    print('%-14s %6s -> %d' % (name, match.group(2), new_value))
                line = re.sub(pattern, lambda m: m.group(1) + str(new_value), line)
        if column >= 0:  # keep the continuation backslashes in their column
            body = line[:line.rfind('\\')].rstrip()
            line = body + ' ' * max(1, column - len(body)) + '\\'
        lines[i] = line
    missing = set(state['params']) - found
    if missing:
        sys.exit('spsa: not in SEARCH_PARAMS_DEFAULT of %s: %s' % (header, ', '.join(sorted(missing))))
    open(header, 'w').write('\n'.join(lines))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--selftest':
        return selftest()
    ap = argparse.ArgumentParser(description='local SPSA of the named search parameters')
    sub = ap.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('run')
    r.add_argument('state')
    r.add_argument('--engine', default='build/tune/outpost')
    r.add_argument('--params', default='')
    r.add_argument('--iterations', type=int, default=1000)
    r.add_argument('--pairs', type=int, default=4)
    r.add_argument('--tc', default='8+0.08')
    r.add_argument('--concurrency', type=int, default=2)
    s = sub.add_parser('show')
    s.add_argument('state')
    a = sub.add_parser('apply', help="write theta (rounded) into the header's SEARCH_PARAMS_DEFAULT")
    a.add_argument('state')
    a.add_argument('--header', default='include/params.h')
    args = ap.parse_args()
    return {'run': run, 'show': show, 'apply': apply}[args.cmd](args)


if __name__ == '__main__':
    sys.exit(main() or 0)
