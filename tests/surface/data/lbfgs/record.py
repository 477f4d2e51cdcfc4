"""The LBFGS trajectory cases, and their recording under PyTorch 2.13.

Each case: a problem (its loss and gradient computed with NumPy scalar arithmetic in the
parameters' dtype, one operation at a time in a fixed order, so that PyTorch and gradcli are
handed the same bits whenever their parameters agree), a dtype, LBFGS's options and `STEPS`
calls of `step(closure)`. Recorded after each step: every parameter, the loss `step` returned,
the state's `func_evals` and `n_iter`, and how many times the closure ran.

    /work/torchenv/bin/python tests/surface/data/lbfgs/record.py   # writes expected.npz
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

STEPS = 2
HERE = Path(__file__).resolve().parent


def _sum(terms: list[Any], dt: Any) -> Any:
    total = dt(0)
    for v in terms:
        total = total + v
    return total


def quadratic(x: np.ndarray) -> tuple[Any, np.ndarray]:
    """sum a_i (x_i - c_i)**2 + sum b x_i x_(i+1): a coupled, ill-conditioned bowl."""
    dt = x.dtype.type
    n = x.size
    a = [dt(1 + 7 * (i % 5)) / dt(3) for i in range(n)]
    c = [dt(i % 4) - dt(1.5) for i in range(n)]
    b = dt(0.35)
    terms, grad = [], [dt(0)] * n
    for i in range(n):
        r = x[i] - c[i]
        terms.append(a[i] * (r * r))
        grad[i] = grad[i] + dt(2) * a[i] * r
    for i in range(n - 1):
        terms.append(b * (x[i] * x[i + 1]))
        grad[i] = grad[i] + b * x[i + 1]
        grad[i + 1] = grad[i + 1] + b * x[i]
    return _sum(terms, dt), np.array(grad, x.dtype)


def rosenbrock(x: np.ndarray) -> tuple[Any, np.ndarray]:
    """The extended Rosenbrock function: sum 100 (x_(i+1) - x_i**2)**2 + (1 - x_i)**2."""
    dt = x.dtype.type
    n = x.size
    terms, grad = [], [dt(0)] * n
    for i in range(n - 1):
        u = x[i + 1] - x[i] * x[i]
        v = dt(1) - x[i]
        terms.append(dt(100) * (u * u) + v * v)
        grad[i] = grad[i] - dt(400) * x[i] * u - dt(2) * v
        grad[i + 1] = grad[i + 1] + dt(200) * u
    return _sum(terms, dt), np.array(grad, x.dtype)


_ROWS, _COLS = 12, 5


def _data(dt: Any) -> tuple[np.ndarray, np.ndarray]:
    """12 rows of 5 features and targets 1/3 (1, 2, 3, 4, 5) . row + 0.5 + noise, in dtype dt
    (Python arithmetic in float64, then rounded: no BLAS, whose order varies)."""
    rng = np.random.default_rng(7)
    features = rng.standard_normal((_ROWS, _COLS))
    noise = rng.standard_normal(_ROWS)
    target = []
    for j in range(_ROWS):
        value = 0.5 + 0.1 * float(noise[j])
        for i in range(_COLS):
            value += (i + 1) / 3.0 * float(features[j, i])
        target.append(value)
    return features.astype(dt), np.array(target).astype(dt)


def linear(x: np.ndarray) -> tuple[Any, np.ndarray]:
    """nn.Linear(5, 1)'s mean squared error on 12 rows: x is the weight's 5 and the bias."""
    dt = x.dtype.type
    features, target = _data(x.dtype)
    w, bias = x[:_COLS], x[_COLS]
    resid = []
    for j in range(_ROWS):
        pred = _sum([features[j, i] * w[i] for i in range(_COLS)], dt) + bias
        resid.append(pred - target[j])
    scale = dt(1) / dt(_ROWS)
    loss = _sum([r * r for r in resid], dt) * scale
    grad = [
        _sum([dt(2) * resid[j] * features[j, i] for j in range(_ROWS)], dt) * scale
        for i in range(_COLS)
    ]
    grad.append(_sum([dt(2) * r for r in resid], dt) * scale)
    return loss, np.array(grad, x.dtype)


PROBLEMS = {"quadratic": quadratic, "rosenbrock": rosenbrock, "linear": linear}

# (problem, number of parameters, shapes the flat vector is cut into)
SETUPS = {
    "rosen2": ("rosenbrock", [(2,)]),
    "rosen6": ("rosenbrock", [(2, 2), (2,)]),
    "quad9": ("quadratic", [(9,)]),
    "quad40": ("quadratic", [(5, 6), (10,)]),  # 40: the dot's registers, 2 x 16 lanes + 8
    "quad70": ("quadratic", [(70,)]),  # 70: all four registers of float32's dot
    "linear": ("linear", [(1, 5), (1,)]),
}

CASES: dict[str, dict[str, Any]] = {}
for _dt in ("float32", "float64"):
    for _setup in SETUPS:
        CASES[f"{_setup}_{_dt}"] = {"setup": _setup, "dtype": _dt, "kw": {}}
        if _setup == "rosen6":  # (a slow valley: 20 iterations a step would take long)
            CASES[f"{_setup}_{_dt}"]["kw"] = {"max_iter": 8}
        CASES[f"{_setup}_{_dt}_wolfe"] = {
            "setup": _setup,
            "dtype": _dt,
            "kw": {"line_search_fn": "strong_wolfe"},
        }
    CASES[f"rosen2_{_dt}_history2"] = {"setup": "rosen2", "dtype": _dt, "kw": {"history_size": 2}}
    CASES[f"rosen6_{_dt}_wolfe_history3"] = {
        "setup": "rosen6",
        "dtype": _dt,
        "kw": {"history_size": 3, "line_search_fn": "strong_wolfe", "max_iter": 12},
    }
    CASES[f"quad9_{_dt}_lr"] = {"setup": "quad9", "dtype": _dt, "kw": {"lr": 0.3}}
    CASES[f"quad40_{_dt}_max_iter"] = {"setup": "quad40", "dtype": _dt, "kw": {"max_iter": 3}}
    CASES[f"rosen6_{_dt}_max_eval"] = {
        "setup": "rosen6",
        "dtype": _dt,
        "kw": {"max_eval": 7, "line_search_fn": "strong_wolfe"},
    }
    CASES[f"rosen2_{_dt}_tolerance_grad"] = {
        "setup": "rosen2",
        "dtype": _dt,
        "kw": {"tolerance_grad": 1e-2, "line_search_fn": "strong_wolfe"},
    }
    CASES[f"linear_{_dt}_tolerance_change"] = {
        "setup": "linear",
        "dtype": _dt,
        "kw": {"tolerance_change": 1e-4},
    }


def initial(case: str) -> list[np.ndarray]:
    spec = CASES[case]
    _, shapes = SETUPS[spec["setup"]]
    n = sum(int(np.prod(s)) for s in shapes)
    start = np.array([(-1.2 if i % 2 == 0 else 1.0) + 0.05 * (i % 7) for i in range(n)])
    out, at = [], 0
    for s in shapes:
        size = int(np.prod(s))
        out.append(start[at : at + size].reshape(s).astype(spec["dtype"]))
        at += size
    return out


def evaluate(case: str, values: list[np.ndarray]) -> tuple[Any, list[np.ndarray]]:
    """The loss (a NumPy scalar) and each parameter's gradient at these values."""
    problem, shapes = SETUPS[CASES[case]["setup"]]
    flat = np.concatenate([v.reshape(-1) for v in values])
    loss, grad = PROBLEMS[problem](flat)
    out, at = [], 0
    for v in values:
        out.append(grad[at : at + v.size].reshape(v.shape))
        at += v.size
    return loss, out


def run_torch(case: str) -> dict[str, np.ndarray]:
    import torch

    params = [torch.nn.Parameter(torch.from_numpy(v.copy())) for v in initial(case)]
    opt = torch.optim.LBFGS(params, **CASES[case]["kw"])
    calls = [0]

    def closure() -> Any:
        calls[0] += 1
        opt.zero_grad()
        loss, grads = evaluate(case, [p.detach().numpy().copy() for p in params])
        for p, g in zip(params, grads):
            p.grad = torch.from_numpy(g.copy())
        return torch.tensor(loss)

    out: dict[str, list[Any]] = {"loss": [], "func_evals": [], "n_iter": [], "calls": []}
    for i in range(len(params)):
        out[f"p{i}"] = []
    for _ in range(STEPS):
        loss = opt.step(closure)
        out["loss"].append(loss.item())
        state = opt.state[params[0]]
        out["func_evals"].append(state["func_evals"])
        out["n_iter"].append(state["n_iter"])
        out["calls"].append(calls[0])
        for i, p in enumerate(params):
            out[f"p{i}"].append(p.detach().numpy().copy())
    return {k: np.array(v) for k, v in out.items()}


def main() -> None:
    import torch

    assert torch.__version__.startswith("2.13"), torch.__version__
    torch.set_num_threads(1)
    arrays = {}
    for case in CASES:
        for key, value in run_torch(case).items():
            arrays[f"{case}/{key}"] = value
    np.savez_compressed(HERE / "expected.npz", **arrays)
    print(f"recorded {len(CASES)} cases ({torch.__version__})")


if __name__ == "__main__":
    main()
