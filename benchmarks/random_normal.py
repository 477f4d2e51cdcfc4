"""Drawing 10**6 normals with gradcli's PyTorch-exact generator, against NumPy's standard_normal.

The bar (issue 11): at most 3x NumPy's `Generator.standard_normal` for the same count and dtype.
One library thread: the thread variables are set before NumPy is imported. Repetitions of the
contenders are interleaved (A, B, C, A, B, C, ...) so that a busy machine slows them alike; the
medians are reported, with the ratio to NumPy's Generator (and to the legacy RandomState, which
has no float32). Times are the process's CPU time by default (on a shared machine the wall
clock mostly measures the other processes); --clock wall for perf_counter.

--floor adds what float64's bits cannot avoid, as contenders of their own: libm's sin and cos of
the n / 2 angles (NumPy's np.sin/np.cos call glibc's here) and the n 64-bit words of the Mersenne
Twister; and, for comparison, gradcli's bulk log of the n / 2 radii's inputs (glibc's bits: the
log PyTorch's kernel calls).

--before FILE adds another version of gradcli/surface/random.py (e.g. one written out with
`git show REV:gradcli/surface/random.py > /tmp/before.py`) as more contenders, interleaved with
the rest, and checks that both versions draw the same bits.

    python benchmarks/random_normal.py [--n 1000000] [--reps 15] [--clock cpu|wall]
        [--before FILE] [--floor]
"""

from __future__ import annotations

import os

for _var in (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from gradcli.surface import random as R  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10**6)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    ap.add_argument("--before", type=Path, default=None)
    ap.add_argument("--floor", action="store_true")
    args = ap.parse_args()
    n = args.n
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    numpy_gen = np.random.default_rng(0)
    legacy = np.random.RandomState(0)
    ours = R.Generator().manual_seed(0)
    contenders = {
        "gradcli float32": lambda: R.randn(n, dtype="float32", generator=ours),
        "numpy float32": lambda: numpy_gen.standard_normal(n, dtype=np.float32),
        "gradcli float64": lambda: R.randn(n, dtype="float64", generator=ours),
        "numpy float64": lambda: numpy_gen.standard_normal(n),
        "numpy legacy float64": lambda: legacy.standard_normal(n),
    }
    if args.before is not None:
        # named inside gradcli.surface: a version that imports from gradcli's core resolves it
        spec = importlib.util.spec_from_file_location("gradcli.surface.random_before", args.before)
        assert spec is not None and spec.loader is not None
        old = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = old  # (dataclasses look their module up)
        spec.loader.exec_module(old)
        theirs = old.Generator().manual_seed(0)
        for dt in ("float32", "float64"):
            a = R.randn(n, dtype=dt, generator=R.Generator().manual_seed(1))
            b = old.randn(n, dtype=dt, generator=old.Generator().manual_seed(1))
            assert a.tobytes() == b.tobytes(), f"--before draws other {dt} bits"
        contenders["before float32"] = lambda: old.randn(n, dtype="float32", generator=theirs)
        contenders["before float64"] = lambda: old.randn(n, dtype="float64", generator=theirs)
    if args.floor:
        angles = np.random.default_rng(1).random(n // 2) * (2 * np.pi)
        radii = 1.0 - np.random.default_rng(2).random(n // 2)
        words = R.Generator().manual_seed(0)
        contenders["floor libm sin+cos"] = lambda: (np.sin(angles), np.cos(angles))
        contenders["gradcli bulk log"] = lambda: R._libm_log_unit(radii)
        contenders["floor 64-bit words"] = lambda: words.random64(n)
    for fn in contenders.values():  # warm up (lazy tables, probes, caches)
        fn()
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(args.reps):
        for name, fn in contenders.items():
            t = clock()
            fn()
            times[name].append(clock() - t)
    med = {name: statistics.median(ts) for name, ts in times.items()}
    for name, m in med.items():
        print(f"{name:22s} {m * 1e3:8.2f} ms ({args.clock} time, median of {args.reps})")
    for who in ("gradcli", "before") if args.before else ("gradcli",):
        for dt in ("float32", "float64"):
            ratio = med[f"{who} {dt}"] / med[f"numpy {dt}"]
            print(f"{who} {dt}: {ratio:.2f}x numpy Generator.standard_normal")
        legacy_ratio = med[f"{who} float64"] / med["numpy legacy float64"]
        print(f"{who} float64: {legacy_ratio:.2f}x numpy RandomState.standard_normal")
    if args.floor:
        total = 0.0
        for name in ("floor libm sin+cos", "floor 64-bit words"):
            part = med[name] / med["numpy float64"]
            total += part
            print(f"{name}: {part:.2f}x numpy float64")
        print(f"float64 floor (the two together): {total:.2f}x numpy float64")
        log_ratio = med["gradcli bulk log"] / med["numpy float64"]
        print(f"gradcli bulk log: {log_ratio:.2f}x numpy float64")


if __name__ == "__main__":
    main()
