#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Runs OpenBench's own client code against ./outpost, as a worker would: Client/bench.py
# (run_benchmark: the bench line's node count and nps) and Client/genfens.py
# (create_genfens_opening_book: openings from two engine processes, with and without a
# book). OpenBench is not part of the project: pass the Client folder of a checkout of
# github.com/AndyGrant/OpenBench (its requirements, such as requests, installed).
# Usage: bench/openbench_check.py OPENBENCH/Client [book.epd]   (run from the repository root)
import io
import os
import shutil
import sys
import tempfile

client = os.path.abspath(sys.argv[1])
book = sys.argv[2] if len(sys.argv) > 2 else None
sys.path.insert(0, client)
import bench  # noqa: E402  (OpenBench's Client/bench.py)
import genfens  # noqa: E402

engine = os.path.abspath('outpost')
# Like a worker, from the engine's folder: bench.py runs ./NAME bench; it returns (nps, nodes).
print('bench.run_benchmark: (nps, nodes) =', bench.run_benchmark('outpost', 1, 1))
with tempfile.TemporaryDirectory() as work:  # genfens.py runs ./ENGINE and reads Books/NAME
    shutil.copy(engine, os.path.join(work, 'outpost'))
    os.chdir(work)
    for name in ['None'] + ([os.path.basename(book)] if book else []):
        if name != 'None':
            os.makedirs('Books', exist_ok=True)
            shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', book)
                        if not os.path.isabs(book) else book, os.path.join('Books', name))
        out = io.StringIO()
        genfens.create_genfens_opening_book({
            'engine': 'outpost', 'N': 16, 'threads': 2, 'seeds': [1234567, 7654321],
            'book': 'None' if name == 'None' else os.path.join('Books', name), 'extra': '', 'output': out})
        lines = out.getvalue().splitlines()
        assert len(lines) == 32 and all(line.endswith(';') for line in lines), lines[:3]
        print('\ngenfens.create_genfens_opening_book, book %s: %d EPD lines, first %s' % (name, len(lines), lines[0]))
