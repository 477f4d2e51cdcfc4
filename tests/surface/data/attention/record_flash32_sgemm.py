"""Record the sgemm calls of PyTorch 2.13's fused CPU attention backward (MKL's `sgemm_`, as
`cpu_flash_attention_backward` calls it: its transposes, sizes, alpha and beta) on the inputs
`cases()` makes with NumPy's generator: `flash32_sgemm.npz`, read by
tests/surface/test_attention.py, which checks `ops.flash32`'s rules for them. Shapes where MKL
takes its narrow paths: a head size of 1, one key, one query row, and ordinary ones. Run with
/work/torchenv's Python (MKL is inside libtorch_cpu)."""

import ctypes
import glob
from pathlib import Path

import numpy as np

F32 = np.float32


def cases() -> list[dict]:
    """32 sets: m query rows (1-20), s keys, e head size (each 1 in turn, else 2-24), alpha."""
    rng = np.random.default_rng(20261129)
    out = []
    for t in range(32):
        m = 1 if t % 8 == 7 else int(rng.integers(2, 21))
        s = 1 if t % 4 == 1 else int(rng.integers(2, 25))
        e = 1 if t % 4 == 2 else int(rng.integers(2, 25))
        out.append(
            {
                "alpha": F32(rng.uniform(0.05, 1.0)),
                "q": rng.normal(size=(m, e)).astype(F32),
                "k": rng.normal(size=(s, e)).astype(F32),
                "go": rng.normal(size=(m, e)).astype(F32),
                "attn": rng.uniform(size=(m, s)).astype(F32),
                "ga": rng.normal(size=(m, s)).astype(F32),
                "dv": rng.normal(size=(s, e)).astype(F32),
                "dk": rng.normal(size=(s, e)).astype(F32),
            }
        )
    return out


def _sgemm():
    lib = ctypes.CDLL(
        glob.glob("/work/torchenv/lib/python3*/site-packages/torch/lib/libtorch_cpu.so")[0]
    )
    f = lib.sgemm_
    ptr = ctypes.POINTER(ctypes.c_float)

    def call(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc):
        i = lambda v: ctypes.byref(ctypes.c_int(v))  # noqa: E731
        r = lambda v: ctypes.byref(ctypes.c_float(v))  # noqa: E731
        f(ta.encode(), tb.encode(), i(m), i(n), i(k), r(alpha), a.ctypes.data_as(ptr), i(lda),
          b.ctypes.data_as(ptr), i(ldb), r(beta), c.ctypes.data_as(ptr), i(ldc))  # fmt: skip
        return c

    return call


if __name__ == "__main__":
    sgemm = _sgemm()
    got = {}
    for i, c in enumerate(cases()):
        m, e = c["q"].shape
        s = c["k"].shape[0]
        a = float(c["alpha"])
        # attn = alpha * q @ k^T; grad_v += attn^T @ go; grad_q = alpha * ga @ k (beta 1 on
        # zeros); grad_k += alpha * ga^T @ q (column-major, as the kernel calls them)
        got[f"{i}_attn"] = sgemm(
            "T", "N", s, m, e, a, c["k"], e, c["q"], e, 0.0, np.zeros((m, s), F32), s
        )
        got[f"{i}_dv"] = sgemm(
            "N", "T", e, s, m, 1.0, c["go"], e, c["attn"], s, 1.0, c["dv"].copy(), e
        )
        got[f"{i}_dq"] = sgemm(
            "N", "N", e, m, s, a, c["k"], e, c["ga"], s, 1.0, np.zeros((m, e), F32), e
        )
        got[f"{i}_dk"] = sgemm("N", "T", e, s, m, a, c["q"], e, c["ga"], s, 1.0, c["dk"].copy(), e)
    np.savez_compressed(Path(__file__).with_name("flash32_sgemm.npz"), **got)
