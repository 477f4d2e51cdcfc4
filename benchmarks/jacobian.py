"""Jacobian and Hessian timings: gradcli's methods side by side with PyTorch (and JAX / HIPS
autograd when installed) and a closed form in NumPy, in one process, on the same data.

    python benchmarks/jacobian.py               # the table (about a minute)
    python benchmarks/jacobian.py --quick       # fewer repetitions
    python benchmarks/jacobian.py --threads 1   # one BLAS / torch thread everywhere
    python benchmarks/jacobian.py --json        # machine-readable

Cases: the Jacobian of y = tanh(W2 @ tanh(W1 @ x + b1) + b2) with respect to x at
(n, h, m) = (64, 64, 64), (256, 256, 256), (1024, 256, 1024), and the Hessian of
sum(tanh(W @ x)) at n = 64, 256. gradcli is timed through the library API on a program that
has already been parsed and run (`gradcli.jacobian(run, "y", ["x"], method)`: the
Jacobian computation itself); parsing and running the program are timed separately. Each time
is the best of several rounds, the contenders interleaved within each round, so that a busy
machine slows all of them alike. Peak memory of the batched Jacobian is measured with
tracemalloc (NumPy reports its buffers to it) against the Jacobian's own size.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

MLP_SIZES = [(64, 64, 64), (256, 256, 256), (1024, 256, 1024)]
HESSIAN_SIZES = [64, 256]


def mlp_program(n: int, h: int, m: int) -> str:
    return (
        f"x = randn({n}, dtype=torch.float64, requires_grad=True)\n"
        f"W1 = randn({h}, {n}, dtype=torch.float64) / {n**0.5}\n"
        f"b1 = randn({h}, dtype=torch.float64)\n"
        f"W2 = randn({m}, {h}, dtype=torch.float64) / {h**0.5}\n"
        f"b2 = randn({m}, dtype=torch.float64)\n"
        "y = tanh(W2 @ tanh(W1 @ x + b1) + b2)\n"
    )


def hessian_program(n: int) -> str:
    return (
        f"x = randn({n}, dtype=torch.float64, requires_grad=True)\n"
        f"W = randn({n}, {n}, dtype=torch.float64) / {n**0.5}\n"
        "y = tanh(W @ x).sum()\n"
    )


def best_of(fns: dict[str, Callable[[], Any]], rounds: int, budget: float) -> dict[str, float]:
    """Best time (seconds) of each function over interleaved rounds, after a warm-up: as many
    rounds as fit in `budget` seconds per function (at least 2, at most `rounds`), so that fast
    functions get many chances at a quiet moment and slow ones do not take forever."""
    best = {k: float("inf") for k in fns}
    count: dict[str, int] = {}
    for k, f in fns.items():
        f()
        t = time.perf_counter()
        f()
        first = time.perf_counter() - t
        count[k] = max(2, min(rounds, int(budget / max(first, 1e-9))))
    for r in range(max(count.values())):
        for k, f in fns.items():
            if r >= count[k]:
                continue
            t = time.perf_counter()
            f()
            best[k] = min(best[k], time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rounds")
    ap.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="most rounds per function (default 200, fewer for slow ones: about 2 s each)",
    )
    ap.add_argument("--threads", type=int, default=None, help="BLAS and torch threads")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    ap.add_argument("--no-torch", action="store_true", help="leave PyTorch out")
    args = ap.parse_args()
    if args.threads:
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[var] = str(args.threads)
    rounds = args.rounds or (20 if args.quick else 200)
    budget = 0.3 if args.quick else 2.0

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import tracemalloc

    import numpy as np

    from gradcli import hessian, jacobian, parse

    torch: Any = None
    if not args.no_torch:
        try:
            import torch
            from torch.func import hessian as t_hessian
            from torch.func import jacrev as t_jacrev

            if args.threads:
                torch.set_num_threads(args.threads)
        except ImportError:
            torch = None
    jax: Any = None
    try:
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_enable_x64", True)
    except ImportError:
        jax = None
    hips: Any = None
    try:
        import autograd as hips
        import autograd.numpy as anp
    except ImportError:
        hips = None

    results: dict[str, Any] = {
        "jacobian": [],
        "hessian": [],
        "env": {
            "numpy": np.__version__,
            "torch": getattr(torch, "__version__", None),
            "torch_threads": torch.get_num_threads() if torch is not None else None,
            "cpus": os.cpu_count(),
            "rounds": rounds,
        },
    }

    for n, h, m in MLP_SIZES:
        text = mlp_program(n, h, m)
        t0 = time.perf_counter()
        prog = parse(text)
        t1 = time.perf_counter()
        run = prog.run()
        t2 = time.perf_counter()
        x = run.tensor("x").data
        W1, b1, W2, b2 = (run.tensor(k).data for k in ("W1", "b1", "W2", "b2"))

        def closed(x=x, W1=W1, b1=b1, W2=W2, b2=b2) -> np.ndarray:
            hh = np.tanh(W1 @ x + b1)
            yy = np.tanh(W2 @ hh + b2)
            return ((1 - yy * yy)[:, None] * W2) @ ((1 - hh * hh)[:, None] * W1)

        fns: dict[str, Callable[[], Any]] = {
            f"gradcli {k}": (lambda k=k, run=run: jacobian(run, "y", ["x"], k))
            for k in ("rows", "batched", "forward")
        }
        fns["numpy closed form"] = closed
        if torch is not None:
            tW1, tb1, tW2, tb2, tx = (torch.tensor(a) for a in (W1, b1, W2, b2, x))

            def f(v, tW1=tW1, tb1=tb1, tW2=tW2, tb2=tb2):
                return torch.tanh(tW2 @ torch.tanh(tW1 @ v + tb1) + tb2)

            fns["torch jacobian(vectorize=False)"] = lambda f=f, tx=tx: (
                torch.autograd.functional.jacobian(f, tx)
            )
            fns["torch jacobian(vectorize=True)"] = lambda f=f, tx=tx: (
                torch.autograd.functional.jacobian(f, tx, vectorize=True)
            )
            fns["torch.func.jacrev"] = lambda f=f, tx=tx: t_jacrev(f)(tx)
        if jax is not None:
            jW1, jb1, jW2, jb2, jx_ = (jnp.asarray(a) for a in (W1, b1, W2, b2, x))
            jf = jax.jit(
                jax.jacrev(
                    lambda v, jW1=jW1, jb1=jb1, jW2=jW2, jb2=jb2: jnp.tanh(
                        jW2 @ jnp.tanh(jW1 @ v + jb1) + jb2
                    )
                )
            )
            fns["jax jit(jacrev)"] = lambda jf=jf, jx_=jx_: jf(jx_).block_until_ready()
        if hips is not None:

            def hf(v, W1=W1, b1=b1, W2=W2, b2=b2):
                return anp.tanh(W2 @ anp.tanh(W1 @ v + b1) + b2)

            fns["autograd (HIPS) jacobian"] = lambda hf=hf, x=x: hips.jacobian(hf)(x)
        ref = closed()
        for k in ("rows", "batched", "forward"):
            err = float(np.max(np.abs(jacobian(run, "y", ["x"], k).array - ref)))
            assert err < 1e-10, (k, err)
        times = best_of(fns, rounds, budget)
        jacobian(run, "y", ["x"], "batched")
        tracemalloc.start()
        tracemalloc.reset_peak()
        J = jacobian(run, "y", ["x"], "batched").array
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        results["jacobian"].append(
            {
                "size": [n, h, m],
                "parse_s": t1 - t0,
                "run_s": t2 - t1,
                "times_s": times,
                "peak_bytes": peak,
                "jacobian_bytes": int(J.nbytes),
            }
        )

    for n in HESSIAN_SIZES:
        text = hessian_program(n)
        t0 = time.perf_counter()
        prog = parse(text)
        t1 = time.perf_counter()
        run = prog.run()
        t2 = time.perf_counter()
        x = run.tensor("x").data
        W = run.tensor("W").data

        def closed_h(x=x, W=W) -> np.ndarray:
            t = np.tanh(W @ x)
            return (W.T * (-2 * t * (1 - t * t))) @ W

        hfns: dict[str, Callable[[], Any]] = {
            "gradcli hessian": lambda run=run: hessian(run, "y", ["x"]),
            "numpy closed form": closed_h,
        }
        if torch is not None:
            tW, tx = torch.tensor(W), torch.tensor(x)

            def g(v, tW=tW):
                return torch.tanh(tW @ v).sum()

            hfns["torch.func.hessian"] = lambda g=g, tx=tx: t_hessian(g)(tx)
            hfns["torch hessian(vectorize=True)"] = lambda g=g, tx=tx: (
                torch.autograd.functional.hessian(g, tx, vectorize=True)
            )
        if jax is not None:
            jW, jxv = jnp.asarray(W), jnp.asarray(x)
            jh = jax.jit(jax.hessian(lambda v, jW=jW: jnp.tanh(jW @ v).sum()))
            hfns["jax jit(hessian)"] = lambda jh=jh, jxv=jxv: jh(jxv).block_until_ready()
        err = float(np.max(np.abs(hessian(run, "y", ["x"]).array - closed_h())))
        assert err < 1e-10, err
        times = best_of(hfns, rounds, budget)
        results["hessian"].append(
            {"size": [n], "parse_s": t1 - t0, "run_s": t2 - t1, "times_s": times}
        )

    if args.json:
        import json

        print(json.dumps(results, indent=1))
        return
    print(report(results))


def _ms(t: float | None) -> str:
    return "-" if t is None else f"{t * 1e3:9.2f}"


def _ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or b is None else f"{a / b:.2f}x"


def report(results: dict[str, Any]) -> str:
    env = results["env"]
    out = [
        f"numpy {env['numpy']}, torch {env['torch']} ({env['torch_threads']} threads), "
        f"{env['cpus']} CPUs, best of up to {env['rounds']} interleaved rounds; times in ms",
        "",
    ]
    names = list(results["jacobian"][0]["times_s"])
    width = max(len(k) for k in names) + 2
    out.append("Jacobian dy/dx of y = tanh(W2 @ tanh(W1 @ x + b1) + b2)")
    out.append(" " * width + "".join(f"{str(tuple(r['size'])):>17}" for r in results["jacobian"]))
    for k in names:
        out.append(
            f"{k:<{width}}"
            + "".join(f"{_ms(r['times_s'].get(k)):>17}" for r in results["jacobian"])
        )
    out.append(
        f"{'(parse + run the program)':<{width}}"
        + "".join(f"{_ms(r['parse_s'] + r['run_s']):>17}" for r in results["jacobian"])
    )
    out.append("")
    checks = [
        ("batched / torch.func.jacrev", "gradcli batched", "torch.func.jacrev"),
        ("batched / closed form", "gradcli batched", "numpy closed form"),
        (
            "rows / torch jacobian(vectorize=False)",
            "gradcli rows",
            "torch jacobian(vectorize=False)",
        ),
        ("forward / torch.func.jacrev", "gradcli forward", "torch.func.jacrev"),
    ]
    cw = max(len(c[0]) for c in checks) + 2
    for label, a, b in checks:
        out.append(
            f"{label:<{cw}}"
            + "".join(
                f"{_ratio(r['times_s'].get(a), r['times_s'].get(b)):>17}"
                for r in results["jacobian"]
            )
        )
    out.append(
        f"{'batched peak memory / Jacobian size':<{cw}}"
        + "".join(f"{r['peak_bytes'] / r['jacobian_bytes']:>16.2f}x" for r in results["jacobian"])
    )
    out.append(
        f"{'  (peak MB, Jacobian MB)':<{cw}}"
        + "".join(
            f"{r['peak_bytes'] / 1e6:>9.1f}, {r['jacobian_bytes'] / 1e6:5.1f}"
            for r in results["jacobian"]
        )
    )
    out.append("")
    hnames = list(results["hessian"][0]["times_s"])
    width = max(len(k) for k in hnames) + 2
    out.append("Hessian d2y/dx2 of y = sum(tanh(W @ x))")
    out.append(
        " " * width + "".join(f"{'n = ' + str(r['size'][0]):>17}" for r in results["hessian"])
    )
    for k in hnames:
        out.append(
            f"{k:<{width}}" + "".join(f"{_ms(r['times_s'].get(k)):>17}" for r in results["hessian"])
        )
    out.append("")
    for label, a, b in [
        ("hessian / torch.func.hessian", "gradcli hessian", "torch.func.hessian"),
        ("hessian / closed form", "gradcli hessian", "numpy closed form"),
    ]:
        out.append(
            f"{label:<{cw}}"
            + "".join(
                f"{_ratio(r['times_s'].get(a), r['times_s'].get(b)):>17}"
                for r in results["hessian"]
            )
        )
    return "\n".join(out)


if __name__ == "__main__":
    main()
