"""The interpreter's own cost, through the public API only (issue 12, item 2's interpreter part).

    python benchmarks/interpreter.py [--reps 15] [--steps 10000]
    python benchmarks/interpreter.py --compare /path/to/another/checkout   # side by side

- W3 (a chain of N elementwise steps): the program path's run against the same steps through
  the Tensor API under the same run budget (`gradcli.base.limits`, the one internal name used
  here); their difference per step is what interpreting costs.
- W2 / W5 at size 64: parsing (the first time: parse + check + compile; and again, from the
  cache of parsed programs) and running the program, against the derivative of the run
  (the batched Jacobian / Hessian) that the user asked for.

CPU time of the thread (`time.thread_time`), best of `--reps` interleaved repetitions: steady
on a loaded machine. With `--compare`, the same measurements of another checkout run in a
subprocess, one after the other, repeated (ratios are what to read; absolute times move).
"""

from __future__ import annotations

import argparse
import gc
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def measure(root: Path, reps: int, steps: int) -> dict[str, float]:
    sys.path.insert(0, str(root))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import numpy as np
    import run as B

    import gradcli

    def best(fn: Any, n: int = reps, collect: bool = False) -> float:
        out = []
        for _ in range(n):
            t = time.thread_time()
            result = fn()
            out.append(time.thread_time() - t)
            # Freed outside the timing, alike for every system (a long recorded graph holds
            # reference cycles: the collector would otherwise bill the next measurement).
            del result
            if collect:
                gc.collect()
        return min(out)

    res: dict[str, float] = {}
    a = np.linspace(0.5, 1.5, B.CHAIN_WIDTH)
    program = gradcli.parse(B.chain_program(steps))

    def program_run() -> Any:
        return program.run(overrides={"x0": a})

    from gradcli.base import limits  # the run budget a program runs under, for both

    def tensor_api() -> Any:
        # Under the run budget, as a program runs: limits read once, not per operation.
        with limits.BUDGET.run():
            x = gradcli.Tensor(a.copy(), requires_grad=True)
            for _ in range(steps // 2):
                x = x.sin()
                x = x * B.CHAIN_FACTOR
        return x

    for _ in range(2):  # warm, then interleave
        program_run()
        tensor_api()
    runs, apis = [], []
    for _ in range(reps):
        runs.append(best(program_run, 1, collect=True))
        apis.append(best(tensor_api, 1, collect=True))
    res["W3 run us/op"] = min(runs) / steps * 1e6
    res["W3 tensor API us/op"] = min(apis) / steps * 1e6
    res["W3 interpreter us/op"] = res["W3 run us/op"] - res["W3 tensor API us/op"]

    counter = [0]

    def fresh_parse(text: str) -> Any:
        counter[0] += 1  # a new name: never from the cache
        return gradcli.parse(text, f"<bench {counter[0]}>")

    for label, text, of, wrt, derivative in (
        ("W2 64", B.mlp_program(64, 64, 64), "y", "x", gradcli.jacobian),
        ("W5 64", B.hessian_program(64), "y", "x", gradcli.hessian),
    ):
        p = gradcli.parse(text)
        r = p.run()
        res[f"{label} parse ms"] = best(lambda text=text: fresh_parse(text), 4 * reps) * 1e3
        res[f"{label} parse again ms"] = best(lambda text=text: gradcli.parse(text), 4 * reps) * 1e3
        res[f"{label} run ms"] = best(p.run, 4 * reps) * 1e3
        res[f"{label} derivative ms"] = (
            best(lambda r=r, d=derivative, o=of, w=wrt: d(r, o, [w], "batched"), 4 * reps) * 1e3
        )
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--steps", type=int, default=10_000)
    ap.add_argument("--compare", type=Path, help="another checkout to measure alongside")
    ap.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(measure(args.root, args.reps, args.steps)))
        return
    roots = [ROOT] + ([args.compare] if args.compare else [])
    results: list[dict[str, float]] = [{} for _ in roots]
    for _ in range(3):  # alternate the checkouts, keep each one's best
        for i, root in enumerate(roots):
            out = subprocess.run(
                [sys.executable, __file__, "--json", "--root", str(root), "--reps",
                 str(args.reps), "--steps", str(args.steps)],
                capture_output=True, text=True, check=True,
            ).stdout  # fmt: skip
            for k, v in json.loads(out).items():
                results[i][k] = min(v, results[i].get(k, v))
    names = ["this checkout"] + ([str(args.compare)] if args.compare else [])
    print(f"{'':28}" + "".join(f"{n[-24:]:>26}" for n in names))
    for key in results[0]:
        print(f"{key:28}" + "".join(f"{r.get(key, float('nan')):26.3f}" for r in results))


if __name__ == "__main__":
    main()
