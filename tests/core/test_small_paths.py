"""The shortcuts of the float32 kernels for small arrays and ordinary values give the general
path's bits: each is checked here against the path it skips, on random and special inputs."""

from __future__ import annotations

import numpy as np

from gradcli.core import sleef32

F32 = np.float32
SPECIAL = np.array(
    [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 1e-40, 88.0, 88.7, 89.0, -100.0,
     100.0, 100.5, -103.9, -104.0, -104.5, -110.0, 3e38, -3e38],
    dtype=F32,
)  # fmt: skip


def _bits(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, F32).view(np.uint32)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return np.array_equal(_bits(a), _bits(b))


def _inputs(rng: np.random.Generator) -> list[np.ndarray]:
    out = [np.zeros(0, F32), SPECIAL[:1].copy(), np.array([0.5], F32)]
    for n in (1, 2, 3, 8, 31, 32, 33, 40, 100):
        for scale in (0.01, 1.0, 10.0, 60.0):
            out.append((rng.standard_normal(n) * scale).astype(F32))
    return out


def test_exp_kernels_plain_path_matches_the_general_one() -> None:
    # An array with every element in range takes the plain path; the same elements beside one
    # special value (NaN, inf, out of range) take the general one: equal bits.
    rng = np.random.default_rng(3)
    for f in (sleef32.expf, sleef32.glibc_expf):
        for x in _inputs(rng):
            both = f(np.concatenate([x, SPECIAL]))
            assert _same(f(x), both[: x.size])
        for i in range(SPECIAL.size):  # alone, and beside ordinary values
            assert _same(f(SPECIAL[i : i + 1]), both[x.size + i :][:1])


def test_optimizer_add_direct_fma_matches_the_general_fma() -> None:
    # surface.kernels.add for two float32 arrays of one shape calls the exact fma at once;
    # the general path (broadcast, reshape, the random module's fma) gives the same bits.
    from gradcli.surface import kernels as K

    rng = np.random.default_rng(5)
    arrays = [np.zeros((0, 3), F32), np.array([1.5], F32), SPECIAL]
    arrays += [
        (rng.standard_normal((4, n)) * 10.0 ** rng.integers(-40, 30)).astype(F32)
        for n in (1, 10, 70)
    ]
    for a in arrays:
        b = (
            rng.permutation(np.resize(SPECIAL, a.size)).reshape(a.shape)
            if a.size < 30
            else (rng.standard_normal(a.shape).astype(F32))
        )
        for alpha in (-1, -0.01, -0.5, 3.0, -1e-3, 2.5e-38):
            with np.errstate(all="ignore"):  # (as every kernel runs: overflow is inf)
                got = K.add(a, b, alpha)
                want = K.fma(b, K.scalar(alpha, a.dtype), a, a.dtype)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert np.array_equal(np.isnan(got), np.isnan(want))
            assert _same(got[~np.isnan(got)], want[~np.isnan(want)])
