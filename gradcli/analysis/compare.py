"""Whether two derivatives agree (the seam for one comparison rule).

Two values a, b agree when `|a - b| <= atol + rtol * max(|a|, |b|)`, plus, where finite
differences are involved, their rounding-error estimate. Exact methods (engine, forward mode,
sympy, torch in float64) must agree to RTOL_EXACT relative and ATOL_EXACT * max(1, max |J|)
absolute (the F32 pair when PyTorch computed in float32). At a kink (the one-sided
differences disagree by more than KINK_TOL) every method's value must lie between the two
one-sided derivatives. (`jacobian.compare` reports the differences between methods without a
verdict.)
"""

from __future__ import annotations

import numpy as np

from .differences import Differences
from .results import Comparison, PairResult

ATOL = 1e-6
RTOL = 1e-5
ATOL_EXACT = 1e-10
RTOL_EXACT = 1e-8
ATOL_F32 = 1e-5
RTOL_F32 = 2e-4
KINK_TOL = 1e-2


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
) -> Comparison:
    """Entry by entry: |a - b| <= atol + rtol * max(|a|, |b|) (+ noise); at kinks both must
    lie between the one-sided derivatives `lo`, `hi` (widened by the same tolerance)."""
    with np.errstate(all="ignore"):
        big = np.maximum(np.abs(a), np.abs(b))
        diff = np.abs(a - b)
        allowed = atol + rtol * np.where(np.isfinite(big), big, 0.0)
        if noise is not None:
            allowed = allowed + noise
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        ratio = np.where(same, 0.0, diff / allowed)
        # An entry where one method (not the engine) has no value is skipped.
        missing = (np.isnan(a) ^ np.isnan(b)) & ~(np.isnan(a) & (a_name == "engine"))
        ratio = np.where(missing, 0.0, ratio)
        ratio = np.where(np.isnan(ratio), np.inf, ratio)
        if kinks is not None and lo is not None and hi is not None:
            low, high = np.minimum(lo, hi) - allowed, np.maximum(lo, hi) + allowed
            inside = ((a >= low) & (a <= high) | np.isnan(a)) & (
                (b >= low) & (b <= high) | np.isnan(b)
            )
            ratio = np.where(kinks & inside, 0.0, ratio)
        fin = np.isfinite(diff) & ~missing
        max_abs = float(diff[fin].max()) if fin.any() else 0.0
        rel_ok = fin & (big > atol)
        max_rel = float((diff[rel_ok] / big[rel_ok]).max()) if rel_ok.any() else 0.0
    if ratio.size:
        k = int(np.argmax(ratio))
        worst = (int(k // ratio.shape[1]), int(k % ratio.shape[1]))
        top = float(ratio.reshape(-1)[k])
    else:
        worst, top = None, 0.0
    return Comparison(
        a_name, b_name, max_abs, max_rel, bool(top <= 1.0), worst, top, int(missing.sum())
    )


def compare_all(
    r: PairResult, diffs: Differences | None, atol: float, rtol: float, low_precision: set[str]
) -> None:
    names = list(r.jacobians)
    scale = max(
        (
            float(np.nanmax(np.abs(J)))
            for J in r.jacobians.values()
            if J.size and np.isfinite(J).any()
        ),
        default=1.0,
    )
    scale = max(1.0, scale if np.isfinite(scale) else 1.0)
    kinks = lo = hi = None
    if diffs is not None:
        with np.errstate(all="ignore"):
            gap = np.abs(diffs.right - diffs.left)
            size = np.maximum(1.0, np.maximum(np.abs(diffs.left), np.abs(diffs.right)))
            kinks = np.nan_to_num(gap / size, nan=0.0) > KINK_TOL
        lo, hi = diffs.left, diffs.right
        r.kinks = kinks
        r.one_sided = (diffs.left, diffs.right)
    for x in range(len(names)):
        for y in range(x + 1, len(names)):
            a, b = names[x], names[y]
            if "numeric" in (a, b):
                c = compare(
                    a,
                    r.jacobians[a],
                    b,
                    r.jacobians[b],
                    atol=atol,
                    rtol=rtol,
                    noise=diffs.noise if diffs is not None else None,
                    kinks=kinks,
                    lo=lo,
                    hi=hi,
                )
            else:
                if a in low_precision or b in low_precision:
                    at, rt = ATOL_F32 * scale, RTOL_F32
                else:
                    at, rt = ATOL_EXACT * scale, RTOL_EXACT
                c = compare(
                    a,
                    r.jacobians[a],
                    b,
                    r.jacobians[b],
                    atol=at,
                    rtol=rt,
                    kinks=kinks,
                    lo=lo,
                    hi=hi,
                )
            r.comparisons.append(c)
