"""The float32 matrix products of tutorial training loops under the avx2 kernel family (MKL's
order as PyTorch computes it on an AVX2 processor, emulated), this tree against another.

Each case is one product as a training step makes it: the forward `x @ w` (m, k) @ (k, n),
the weight's gradient `x.t() @ g` (k, m) @ (m, n) and the input's `g @ w.t()` (m, n) @ (n, k);
nn.Linear's `x @ w.t()` (with and without its bias), a one-feature regression (N, 1) @ (1, 1)
and a batched bmm. The shapes are those tutorials use: the "two-layer net" warm-up (64, 1000,
100) and (64, 100, 10), MNIST's (100, 784, 128) and (32, 128, 10).

Both trees are imported into this process (the other under another package name), with one
library thread; the cases are interleaved (each round times every case once in each tree, the
order rotating) and a ratio is the median over the rounds of before / after within a round,
in CPU time (the machine is shared: CPU time moves much less with the load than the wall
clock). Every product's bits are compared between the trees: a difference stops the run.

    python benchmarks/matmul_avx2.py --before DIR [--rounds 7] [--family avx2|avx512]

DIR holds another tree's `gradcli` package (e.g. `git archive main gradcli | tar -x -C DIR`).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import numpy as np  # noqa: E402  (after the thread counts are set)

ROOT = Path(__file__).resolve().parent.parent


def load(tree: Path, name: str):
    """The `gradcli.ops.linalg` module of the gradcli package in `tree`, imported as `name`."""
    spec = importlib.util.spec_from_file_location(
        name, tree / "gradcli" / "__init__.py", submodule_search_locations=[str(tree / "gradcli")]
    )
    pkg = importlib.util.module_from_spec(spec)
    sys.modules[name] = pkg
    spec.loader.exec_module(pkg)
    return importlib.import_module(f"{name}.ops.linalg")


def cases(rng: np.random.Generator) -> dict[str, tuple]:
    """name -> (function name in linalg, its arguments)."""

    def f32(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    out: dict[str, tuple] = {}
    for m, k, n in ((64, 1000, 100), (64, 100, 10), (100, 784, 128), (32, 128, 10)):
        x, w, g = f32(m, k), f32(k, n), f32(m, n)
        out[f"x@w {m}x{k}x{n}"] = ("_matmul_fwd", x, w)
        out[f"x.t()@g {k}x{m}x{n}"] = ("_matmul_fwd", x.T, g)
        out[f"g@w.t() {m}x{n}x{k}"] = ("_matmul_fwd", g, w.T)
    x, w, b = f32(64, 784), f32(128, 784), f32(128)
    out["F.linear 64x784x128 +bias"] = ("linear_sum", x, w.T, b)
    out["x@w.t() 64x784x128"] = ("_matmul_fwd", x, w.T)
    out["regression 100x1x1"] = ("_matmul_fwd", f32(100, 1), f32(1, 1))
    out["bmm 8x(32x64x32)"] = ("_bmm_fwd", f32(8, 32, 64), f32(8, 64, 32))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, required=True, help="a directory holding `gradcli`")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--family", default="avx2", choices=("avx2", "avx512"))
    args = ap.parse_args()
    os.environ["GRADCLI_KERNELS"] = args.family
    trees = {"after": load(ROOT, "gradcli_after"), "before": load(args.before, "gradcli_before")}
    work = cases(np.random.default_rng(0))
    cpu: dict[tuple[str, str], list[float]] = {(c, t): [] for c in work for t in trees}
    names = list(work)
    reps = {}
    for name in names:  # (a small product is timed over several calls: 5 ms or more a sample)
        fn, *operands = work[name]
        t = time.process_time()
        getattr(trees["before"], fn)(*operands)
        reps[name] = max(1, min(1000, int(0.005 / max(time.process_time() - t, 1e-6))))
    for r in range(args.rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            fn, *operands = work[name]
            got = {}
            for tag in ("after", "before") if r % 2 else ("before", "after"):
                f = getattr(trees[tag], fn)
                t = time.process_time()
                for _ in range(reps[name]):
                    got[tag] = f(*operands)
                cpu[name, tag].append((time.process_time() - t) / reps[name])
            a, b = (np.asarray(got[t]).view(np.uint32) for t in ("after", "before"))
            if not np.array_equal(a, b):
                sys.exit(f"{name}: the trees' bits differ")
    print(
        f"{args.family} family, {args.rounds} rounds, one thread; CPU ms (median), "
        "before / after: median of the per-round ratios [min-max]"
    )
    print(f"{'product':30} {'before':>9} {'after':>9} {'ratio':>7}")
    for name in names:
        ratios = [b / max(a, 1e-9) for a, b in zip(cpu[name, "after"], cpu[name, "before"])]
        print(
            f"{name:30} {statistics.median(cpu[name, 'before']) * 1e3:9.2f} "
            f"{statistics.median(cpu[name, 'after']) * 1e3:9.2f} "
            f"{statistics.median(ratios):6.1f}x [{min(ratios):.1f}-{max(ratios):.1f}]"
        )


if __name__ == "__main__":
    main()
