"""Finite differences: the one numeric-derivative engine, pure NumPy on a callable.

Every numeric derivative in gradcli comes from here: `jacobian --method numeric` and `hessian
--method numeric` (differences of a re-evaluated graph or a re-run program), `check` (of the
program, of the recorded graph, and of one op at its node when a rule is blamed), and the
tests' `gradcheck` helper. The callers differ only in the function they difference and in the
step policy, which is a parameter (`Step`).

For a function `f` of an array `x0` and each element j of `x0`, with the step `h_j` of the
policy and the steps actually taken (`hp = (x_j + h_j) - x_j`, `hm = x_j - (x_j - h_j)`, which
differ from `h_j` by rounding):

    central   (f(x + hp e_j) - f(x - hm e_j)) / (hp + hm)       error O(h^2) + noise
    right     (f(x + hp e_j) - f(x)) / hp                       error O(h) + noise
    left      (f(x) - f(x - hm e_j)) / hm
    noise     NOISE * max(|f(x + hp e_j)|, |f(x - hm e_j)|, |f(x)|) / min(hp, hm)

`noise` estimates the rounding error of the central difference: the function's values carry a
relative rounding error of a few ulps each (NOISE is 64 ulps of float64), amplified by the
division by the step. Where the one-sided differences disagree (`kinks`), `f` is not
differentiable at x (relu or abs at 0, a tie of max, a clamp bound, a branch of the program).

`f` returns the output (any shape; it is flattened) or None where it cannot be evaluated (the
column is then nan and counted in `failed`). Exceptions propagate: a limit error must stop the
whole computation, never be turned into a missing column. Each evaluation of `f` is reported to
the sandbox's observer (`hooks.observer.tick()`), so the time limit stops a long run between
two evaluations even when `f` itself runs no recorded operation.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..base.record import Record
from . import hooks

EPS = 1e-6  # the relative step of `check`
CUBE_ROOT = float(np.finfo(np.float64).eps ** (1 / 3))  # ~6.06e-6: balances h^2 against eps/h
NOISE = 64 * 2.0**-52  # relative rounding error assumed of each value of f
KINK_TOL = 1e-2  # one-sided differences this far apart (relative) mark a kink

Function = Callable[[np.ndarray], "np.ndarray | None"]
Progress = Callable[[int, int], None]


class Step:
    """A step policy: `h = eps * max(1, |x|)` (relative) or `h = eps` (absolute). Non-finite
    inputs take the plain `eps`."""

    def __init__(self, eps: float, *, relative: bool = True):
        if not (eps > 0 and np.isfinite(eps)):
            raise ValueError(f"a finite-difference step must be positive and finite, not {eps}")
        self.eps = float(eps)
        self.relative = relative

    def __call__(self, x: float) -> float:
        if self.relative and np.isfinite(x):
            return self.eps * max(1.0, abs(x))
        return self.eps

    def describe(self) -> str:
        return f"{self.eps:.3g} * max(1, |x|)" if self.relative else f"{self.eps:.3g}"

    def __repr__(self) -> str:
        return f"Step({self.eps!r}, relative={self.relative})"


def relative(eps: float = EPS) -> Step:
    return Step(eps, relative=True)


def absolute(h: float) -> Step:
    return Step(h, relative=False)


class Differences(Record):
    """The finite differences of a function with respect to one input: (n_out, n_in) arrays,
    column j for input element j. `left`, `right` and `noise` are None when only central
    differences were asked for."""

    _fields = ("central", "left", "right", "noise", "failed", "step")
    central: np.ndarray
    left: np.ndarray | None
    right: np.ndarray | None
    noise: np.ndarray | None
    failed: np.ndarray  # bool (n_in,): the columns whose perturbed evaluations failed
    step: Step

    @property
    def n_failed(self) -> int:
        return int(self.failed.sum())

    def kinks(self, tol: float = KINK_TOL) -> np.ndarray | None:
        """bool (n_out, n_in): where the one-sided differences disagree by more than `tol`
        relative (to max(1, |left|, |right|)): the function has a kink there."""
        if self.left is None or self.right is None:
            return None
        left, right = self.left.reshape(-1), self.right.reshape(-1)
        out = np.zeros(left.size, dtype=bool)
        step = 1 << 18  # a few MB of temporaries at a time, the budget checked in between
        for k in range(0, left.size, step):
            hooks.observer.tick()
            lk, rk = left[k : k + step], right[k : k + step]
            with np.errstate(all="ignore"):
                gap = np.abs(rk - lk)
                size = np.maximum(1.0, np.maximum(np.abs(lk), np.abs(rk)))
                out[k : k + step] = np.nan_to_num(gap / size, nan=0.0) > tol
        return out.reshape(self.left.shape)


def _flat(v: object) -> np.ndarray:
    return np.asarray(v, dtype=np.float64).reshape(-1)


def differences(
    f: Function,
    x0: np.ndarray,
    *,
    step: Step | None = None,
    f0: np.ndarray | None = None,
    one_sided: bool = True,
    progress: Progress | None = None,
) -> Differences:
    """Central (and, with `one_sided`, left, right and a noise estimate) differences of `f`
    at `x0` for every element of `x0`; see the module's docstring."""
    step = step or relative()
    x0 = np.asarray(x0, dtype=np.float64)
    flat = x0.reshape(-1).copy()
    n_in = int(flat.size)
    if one_sided and f0 is None:
        hooks.observer.tick()
        got = f(x0.copy())
        if got is None:
            raise ValueError("the function cannot be evaluated at the unperturbed point")
        f0 = got
    base = None if f0 is None else _flat(f0)
    central: np.ndarray | None = None
    left = right = noise = None
    failed = np.zeros(n_in, dtype=bool)
    n_out = None if base is None else int(base.size)

    def alloc(n: int) -> None:
        nonlocal central, left, right, noise, n_out
        n_out = n
        central = np.full((n, n_in), np.nan)
        if one_sided:
            left = np.full((n, n_in), np.nan)
            right = np.full((n, n_in), np.nan)
            noise = np.zeros((n, n_in))

    if n_out is not None:
        alloc(n_out)
    for j in range(n_in):
        xj = float(flat[j])
        h = step(xj)
        flat[j] = xj + h
        hooks.observer.tick()
        fp = f(flat.reshape(x0.shape).copy())
        hp = float(flat[j]) - xj  # the steps actually taken
        flat[j] = xj - h
        hooks.observer.tick()
        fm = f(flat.reshape(x0.shape).copy())
        hm = xj - float(flat[j])
        flat[j] = xj
        if fp is not None and fm is not None:
            fp, fm = _flat(fp), _flat(fm)
            if central is None:
                alloc(int(fp.size))
        if (
            fp is None
            or fm is None
            or fp.size != n_out
            or fm.size != n_out
            or not (hp > 0 and hm > 0)
        ):
            failed[j] = True
            continue
        assert central is not None
        with np.errstate(all="ignore"):
            central[:, j] = (fp - fm) / (hp + hm)
            if one_sided:
                assert left is not None and right is not None and noise is not None
                assert base is not None
                right[:, j] = (fp - base) / hp
                left[:, j] = (base - fm) / hm
                scale = np.maximum(np.maximum(np.abs(fp), np.abs(fm)), np.abs(base))
                noise[:, j] = NOISE * scale / min(hp, hm)
        if progress is not None and ((j + 1) % 8 == 0 or j + 1 == n_in):
            progress(j + 1, n_in)
    if central is None:  # nothing could be evaluated: the output's size is unknown
        alloc(0 if n_out is None else n_out)
    assert central is not None
    return Differences(central, left, right, noise, failed, step)


def directional(f: Function, x0: np.ndarray, v: np.ndarray, h: float) -> np.ndarray | None:
    """The central difference of `f` at `x0` along the direction `v`:
    (f(x0 + h v) - f(x0 - h v)) / 2h, the Jacobian-vector product J v (flattened), or None
    where `f` cannot be evaluated."""
    x0 = np.asarray(x0, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64).reshape(x0.shape)
    hooks.observer.tick()
    fp = f(x0 + h * v)
    hooks.observer.tick()
    fm = f(x0 - h * v)
    if fp is None or fm is None:
        return None
    with np.errstate(all="ignore"):
        return (_flat(fp) - _flat(fm)) / (2 * h)
