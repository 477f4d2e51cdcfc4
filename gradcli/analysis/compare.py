"""Whether two derivatives agree: the one comparison rule, used by `check` and by
`jacobian --compare`.

Two values a, b agree when `|a - b| <= atol + rtol * max(|a|, |b|)`, plus, where finite
differences are involved, their rounding-error estimate. The tolerances depend on the pair
(`tolerances`): a pair with finite differences uses the user's `atol` / `rtol` (1e-6 / 1e-5 by
default; `atol` relative to the derivatives' scale where that is below 1, `small_scale`); exact
methods (the engine's reverse and forward modes, sympy, PyTorch in float64)
must agree to RTOL_EXACT relative and ATOL_EXACT * max(1, max |J|) absolute (the F32 pair when
a method computed in float32). At a kink (the one-sided differences disagree by more than
KINK_TOL) every method's value must lie between the two one-sided derivatives (widened by the
same tolerance): that is where PyTorch's conventions fall.

A value one method has and the other has not (nan where the other is a number) is not an
agreement: it is counted in `Comparison.skipped` and makes the pair disagree, unless the
method may lack values (`MAY_LACK`): a finite-difference column whose perturbed runs failed,
an entry sympy cannot evaluate (a DiracDelta at 0).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core import hooks
from ..core.differences import KINK_TOL, Differences
from .results import BLOCK, Comparison

ATOL = 1e-6
RTOL = 1e-5
ATOL_EXACT = 1e-10
RTOL_EXACT = 1e-8
ATOL_F32 = 1e-5
RTOL_F32 = 2e-4

# The methods whose values come from finite differences (their rounding noise is allowed).
NUMERIC = ("numeric",)
# The methods that may have no value at some entries (nan) without disagreeing there.
MAY_LACK = ("numeric", "sympy")

__all__ = [
    "ATOL",
    "ATOL_EXACT",
    "ATOL_F32",
    "KINK_TOL",
    "RTOL",
    "RTOL_EXACT",
    "RTOL_F32",
    "compare",
    "compare_methods",
    "scale_of",
    "tolerances",
]


def compare(
    a_name: str,
    a: np.ndarray,
    b_name: str,
    b: np.ndarray,
    *,
    atol: float,
    rtol: float,
    noise: np.ndarray | None = None,
    kinks: np.ndarray | None = None,
    lo: np.ndarray | None = None,
    hi: np.ndarray | None = None,
    missing_ok: np.ndarray | None = None,
) -> Comparison:
    """Entry by entry: |a - b| <= atol + rtol * max(|a|, |b|) (+ noise); at kinks both must
    lie between the one-sided derivatives `lo`, `hi` (widened by the same tolerance).
    `missing_ok` (bool, broadcast to the entries): where a nan on one side only is allowed
    (a finite-difference column whose perturbed runs failed); elsewhere it disagrees."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    shape = np.broadcast_shapes(a.shape, b.shape)
    cols = shape[1] if len(shape) == 2 else max(1, int(np.prod(shape, dtype=np.int64)))
    rows = int(np.prod(shape, dtype=np.int64)) // cols if cols else shape[0]

    def as2d(x: np.ndarray | None) -> np.ndarray | None:
        if x is None:
            return None
        x = np.broadcast_to(np.asarray(x), shape)
        return x if x.ndim == 2 else x.reshape(rows, cols)

    a2, b2 = as2d(a), as2d(b)
    assert a2 is not None and b2 is not None
    noise2, kinks2, lo2, hi2, ok2 = (as2d(x) for x in (noise, kinks, lo, hi, missing_ok))
    max_abs = max_rel = 0.0
    top, worst, n_missing = -np.inf, None, 0
    cstep = max(1, min(cols, BLOCK))
    rstep = max(1, BLOCK // cstep)
    for r0 in range(0, rows, rstep):
        for c0 in range(0, cols, cstep):
            hooks.observer.tick()
            at = (slice(r0, r0 + rstep), slice(c0, c0 + cstep))
            part = _rule(
                a2[at],
                b2[at],
                atol,
                rtol,
                None if noise2 is None else noise2[at],
                None if kinks2 is None else kinks2[at],
                None if lo2 is None else lo2[at],
                None if hi2 is None else hi2[at],
                None if ok2 is None else ok2[at],
            )
            p_abs, p_rel, p_top, (r, c), p_missing = part
            max_abs, max_rel = max(max_abs, p_abs), max(max_rel, p_rel)
            n_missing += p_missing
            # The first entry (row-major) among the worst, as one argmax over all would give.
            here = (r0 + r, c0 + c)
            if p_top > top or (p_top == top and worst is not None and here < worst):
                top, worst = p_top, here
    if worst is None:
        top = 0.0
    return Comparison(a_name, b_name, max_abs, max_rel, bool(top <= 1.0), worst, top, n_missing)


def _rule(
    a: np.ndarray,
    b: np.ndarray,
    atol: float,
    rtol: float,
    noise: np.ndarray | None,
    kinks: np.ndarray | None,
    lo: np.ndarray | None,
    hi: np.ndarray | None,
    missing_ok: np.ndarray | None,
) -> tuple[float, float, float, tuple[int, int], int]:
    """The rule on one block: (max |a - b|, max relative difference, the largest ratio of
    |a - b| to what is allowed, where it is, the entries one side lacks)."""
    with np.errstate(all="ignore"):
        big = np.maximum(np.abs(a), np.abs(b))
        diff = np.abs(a - b)
        allowed = atol + rtol * np.where(np.isfinite(big), big, 0.0)
        if noise is not None:
            allowed = allowed + np.nan_to_num(noise, nan=0.0, posinf=0.0)
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        ratio = np.where(same, 0.0, diff / allowed)
        missing = np.isnan(a) ^ np.isnan(b)
        if missing_ok is not None:
            ratio = np.where(missing & missing_ok, 0.0, ratio)
        ratio = np.where(np.isnan(ratio), np.inf, ratio)
        if kinks is not None and lo is not None and hi is not None:
            low, high = np.minimum(lo, hi) - allowed, np.maximum(lo, hi) + allowed
            inside = ((a >= low) & (a <= high) | np.isnan(a)) & (
                (b >= low) & (b <= high) | np.isnan(b)
            )
            ratio = np.where(kinks & inside & ~missing, 0.0, ratio)
        fin = np.isfinite(diff) & ~missing
        max_abs = float(diff[fin].max()) if fin.any() else 0.0
        rel_ok = fin & (big > atol)
        max_rel = float((diff[rel_ok] / big[rel_ok]).max()) if rel_ok.any() else 0.0
    k = int(np.argmax(ratio))
    where = divmod(k, ratio.shape[1])
    return max_abs, max_rel, float(ratio.reshape(-1)[k]), where, int(missing.sum())


def scale_of(mats: Sequence[np.ndarray]) -> float:
    """max(1, the largest finite |J| over the methods): the scale of absolute tolerances."""
    best = 1.0
    for m in mats:
        flat = np.asarray(m, dtype=np.float64).reshape(-1)
        for k in range(0, flat.size, BLOCK):
            hooks.observer.tick()
            part = np.abs(flat[k : k + BLOCK])
            part = part[np.isfinite(part)]
            if part.size:
                best = max(best, float(part.max()))
    return best


def tolerances(
    a: str,
    b: str,
    *,
    atol: float,
    rtol: float,
    scale: float,
    low_precision: set[str],
    small: float = 1.0,
) -> tuple[float, float]:
    """(atol, rtol) for comparing methods `a` and `b`: the user's with finite differences,
    the exact pair between exact methods (float32's when either computed in float32).

    With finite differences, `atol` is taken relative to `small` (`small_scale`: the largest
    derivative the exact methods found, when that is below 1): a program whose derivatives are
    all 1e-7 gets the verdict of the same program times 1e7, not "ok" whatever its rules say
    (an absolute 1e-6 would pass a rule wrong by 90% there)."""
    if a in NUMERIC or b in NUMERIC:
        return atol * small, rtol
    if a in low_precision or b in low_precision:
        return ATOL_F32 * scale, RTOL_F32
    return ATOL_EXACT * scale, RTOL_EXACT


# The smallest factor `small_scale` scales `atol` by: smaller derivatives are compared with
# atol * SMALL_FLOOR (1e-11 by default), above the truncation error of central differences
# (h**2 / 6 times the third derivative: 1.7e-13 times it with the default step) for a third
# derivative up to about 60.
SMALL_FLOOR = 1e-5


def small_scale(mats: dict[str, np.ndarray]) -> float:
    """The factor the absolute tolerance of finite differences is taken relative to: the
    largest finite |J| of the exact methods, between SMALL_FLOOR and 1; 1 where they found only
    zeros (nothing to be relative to: x**3 at 0, whose central difference is h**2)."""
    best = 0.0
    for name, m in mats.items():
        if name in NUMERIC:
            continue
        flat = np.asarray(m, dtype=np.float64).reshape(-1)
        for k in range(0, flat.size, BLOCK):
            hooks.observer.tick()
            part = np.abs(flat[k : k + BLOCK])
            part = part[np.isfinite(part)]
            if part.size:
                best = max(best, float(part.max()))
            if best >= 1.0:
                return 1.0
    return 1.0 if best == 0.0 else max(best, SMALL_FLOOR)


def compare_methods(
    mats: dict[str, np.ndarray],
    diffs: Differences | None,
    *,
    atol: float = ATOL,
    rtol: float = RTOL,
    low_precision: set[str] | None = None,
    pairs: Sequence[tuple[str, str]] | None = None,
) -> list[Comparison]:
    """Every pair of methods (or the `pairs` given) by the rule above: `mats` maps a method to
    its (n_out, n_in) Jacobian; `diffs` (the finite differences behind "numeric", with their
    one-sided differences) gives the noise estimate and the kinks."""
    low = low_precision or set()
    names = list(mats)
    if pairs is None:
        pairs = [(names[x], names[y]) for x in range(len(names)) for y in range(x + 1, len(names))]
    scale = scale_of(list(mats.values()))
    small = small_scale(mats) if any(m in NUMERIC for m in names) else 1.0
    kinks = lo = hi = noise = None
    if diffs is not None:
        kinks = diffs.kinks()
        lo, hi, noise = diffs.left, diffs.right, diffs.noise
    lack = {m: np.isnan(np.asarray(v, dtype=np.float64)) for m, v in mats.items() if m in MAY_LACK}
    out = []
    for a, b in pairs:
        at, rt = tolerances(a, b, atol=atol, rtol=rtol, scale=scale, low_precision=low, small=small)
        numeric = a in NUMERIC or b in NUMERIC
        out.append(
            compare(
                a,
                mats[a],
                b,
                mats[b],
                atol=at,
                rtol=rt,
                noise=noise if numeric else None,
                kinks=kinks,
                lo=lo,
                hi=hi,
                missing_ok=_either(lack.get(a), lack.get(b)),
            )
        )
    return out


def _either(a: np.ndarray | None, b: np.ndarray | None) -> np.ndarray | None:
    if a is None:
        return b
    if b is None:
        return a
    return a | b
