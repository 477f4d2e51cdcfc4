"""Records torch.sqrt bits into vmlsqrt_torch.txt (beside this file): run it with a PyTorch
whose CPU capability is AVX512 and which has MKL (`/work/torchenv/bin/python`)."""

from pathlib import Path

import numpy as np
import torch

np.seterr(all="ignore")
rng = np.random.default_rng(2026)
assert torch.backends.cpu.get_cpu_capability() == "AVX512" and torch.backends.mkl.is_available()


def tsqrt(x):
    return torch.from_numpy(x.copy()).sqrt().numpy()


lines = []


def pick(dt, ut, top, sub, n_hard, n_near, n_rand):
    # uniform in binades across the whole range, plus subnormals and tiny (scaled path)
    pool = np.concatenate(
        [
            rng.integers(1, top, 4_000_000, dtype=ut).view(dt),
            (rng.random(2_000_000) * 4).astype(dt),
            rng.integers(1, sub, 400_000, dtype=ut).view(dt),
        ]
    )
    pool = pool[np.isfinite(pool) & (pool > 0)]
    t = tsqrt(pool)
    n = np.sqrt(pool)
    # position of the root above the correctly rounded result's lower midpoint, in ulps
    hi = np.sqrt(pool.astype(np.longdouble))
    frac = ((hi - n.astype(np.longdouble)) / np.spacing(n).astype(np.longdouble)).astype(np.float64)
    hard = np.flatnonzero(t != n)
    near = np.flatnonzero((t == n) & (frac < -0.4))
    near = near[np.argsort(frac[near])[: 20 * n_near]]  # closest to the midpoint first
    sel = np.concatenate(
        [
            rng.choice(hard, n_hard, replace=False),
            rng.choice(near, n_near, replace=False),
            rng.choice(len(pool), n_rand, replace=False),
        ]
    )
    x = pool[sel]
    special = np.array(
        [
            0.0,
            -0.0,
            np.inf,
            -np.inf,
            np.nan,
            -1.0,
            -np.finfo(dt).tiny,
            1.0,
            2.0,
            4.0,
            0.25,
            3.0,
            np.finfo(dt).tiny,
            np.finfo(dt).max,
            np.finfo(dt).smallest_subnormal,
            2.0 ** (-78 if dt == np.float32 else -916),
            2.0 ** (-79 if dt == np.float32 else -917),
        ],
        dt,
    )
    x = np.concatenate([x, special])
    r = tsqrt(x)
    w = 8 if dt == np.float32 else 16
    for a, b in zip(x.view(ut), r.view(ut)):
        lines.append(f"{'f' if dt == np.float32 else 'd'} {int(a):0{w}x} {int(b):0{w}x}")
    print(dt.__name__, "hard", len(hard), "of", len(pool), "recorded", len(x))


pick(np.float32, np.uint32, 0x7F800000, 0x00800000, 1500, 400, 300)
pick(np.float64, np.uint64, 0x7FF0000000000000, 1 << 52, 1500, 400, 300)
head = f"""\
# torch {torch.__version__} CPU (capability AVX512, MKL) torch.sqrt bits: dtype (f = float32,
# d = float64), input and result as bit patterns (hex). Per dtype: 1500 inputs whose root
# PyTorch rounds one ulp below the correctly rounded one (np.sqrt), 400 whose root lies just
# above a rounding midpoint and which PyTorch rounds correctly, 300 random ones, and special
# values (zeros, infinities, nan, negative, subnormal, extremes, the edges of MKL's scaled path
# for tiny inputs).
"""
(Path(__file__).parent / "vmlsqrt_torch.txt").open("w").write(head + "\n".join(lines) + "\n")
