"""Plain rendering of a 256x256 float64 matrix against `numpy.savetxt` (target: <= 2x).

    PYTHONPATH=. python benchmarks/matrix_plain.py [--repeat N]

The two are timed interleaved (savetxt, then matrix_plain, N times) so that a noisy machine
slows both alike; the ratio reported is the median of the per-pair ratios. savetxt writes
`%.18e` (fixed-width, not the shortest text); matrix_plain writes the shortest text that reads
back as the same double, which is what scripts want. Exit status 1 if the median ratio > 2.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
import types
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def load_matrix_module() -> types.ModuleType:
    from gradcli.cli import matrix

    return matrix


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--size", type=int, default=256)
    args = ap.parse_args()
    m = load_matrix_module()
    rng = np.random.default_rng(0)
    n = args.size
    # Gradient-like values: mixed signs, magnitudes 1e-10..1e2, some exact zeros and integers.
    a = rng.standard_normal((n, n)) * 10.0 ** rng.integers(-10, 3, (n, n))
    a[rng.random((n, n)) < 0.1] = 0.0
    a[rng.random((n, n)) < 0.05] = 2.0

    def savetxt() -> None:
        buf = io.StringIO()
        np.savetxt(buf, a)

    def plain() -> None:
        m.matrix_plain(a)

    text = m.matrix_plain(a)
    back = np.array([[float(t) for t in line.split(" ")] for line in text.split("\n")])
    assert np.array_equal(back, a), "matrix_plain does not round-trip"
    for f in (savetxt, plain):  # warm up
        f()
    ratios, ts, tp = [], [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        savetxt()
        t1 = time.perf_counter()
        plain()
        t2 = time.perf_counter()
        ts.append(t1 - t0)
        tp.append(t2 - t1)
        ratios.append((t2 - t1) / (t1 - t0))
    ratio = statistics.median(ratios)
    print(
        f"{n}x{n} float64: numpy.savetxt {statistics.median(ts) * 1e3:.1f} ms, "
        f"matrix_plain {statistics.median(tp) * 1e3:.1f} ms, median ratio {ratio:.2f} "
        f"(target <= 2)"
    )
    return 0 if ratio <= 2 else 1


if __name__ == "__main__":
    sys.exit(main())
