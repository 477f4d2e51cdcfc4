"""`torch.dot` / `a @ b` of two vectors: ATen calls MKL's ?dot, whose order of fused steps
`core.mkldot` reproduces; the results below are PyTorch 2.13's (float.hex of torch.dot on the
same NumPy-drawn vectors, one thread), compared bit for bit through the matmul record."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.ops import linalg as L
from gradcli.ops.arithmetic import matmul

TORCH = [
    ("float32", 1, "0x1.815aca0000000p-12"),
    ("float32", 2, "0x1.c542160000000p+0"),
    ("float32", 3, "0x1.f670c00000000p+0"),
    ("float32", 5, "-0x1.b050c80000000p-3"),
    ("float32", 8, "0x1.8c38260000000p+0"),
    ("float32", 15, "-0x1.ac95500000000p+2"),
    ("float32", 16, "0x1.ce3b860000000p+1"),
    ("float32", 17, "0x1.59fcd00000000p+0"),
    ("float32", 31, "-0x1.d2f0bc0000000p+2"),
    ("float32", 33, "0x1.9c2b200000000p+3"),
    ("float32", 64, "-0x1.c856ae0000000p+2"),
    ("float32", 65, "-0x1.1ccf820000000p+3"),
    ("float32", 100, "0x1.acdccc0000000p+3"),
    ("float32", 129, "0x1.042a6e0000000p+3"),
    ("float32", 257, "-0x1.52c0680000000p+2"),
    ("float32", 1000, "-0x1.0206040000000p+4"),
    ("float32", 4097, "0x1.8c98cc0000000p+4"),
    ("float64", 1, "0x1.296685e4708f7p+1"),
    ("float64", 2, "-0x1.2a5e15d06c2fcp-4"),
    ("float64", 3, "0x1.368c586002e05p+0"),
    ("float64", 5, "0x1.38278a43e1f5ap-3"),
    ("float64", 8, "-0x1.889f2f6694963p-2"),
    ("float64", 15, "0x1.61d74a5bb5d84p-2"),
    ("float64", 16, "0x1.28362417bb9aap+1"),
    ("float64", 17, "-0x1.1208be8107314p+1"),
    ("float64", 31, "-0x1.f1f210488e8c7p+2"),
    ("float64", 33, "0x1.36dc814d231d4p+0"),
    ("float64", 64, "-0x1.1bd6286edec88p+0"),
    ("float64", 65, "-0x1.983e241ec04eep+2"),
    ("float64", 100, "0x1.a3905a9992010p+3"),
    ("float64", 129, "0x1.420368f587504p+4"),
    ("float64", 257, "0x1.5a5e5bae1c4f5p+3"),
    ("float64", 1000, "0x1.3748f01077f8cp+3"),
    ("float64", 4097, "0x1.649e094a2b8c7p+4"),
]


def _vectors(dt: str, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(n * 7 + (dt == "float64"))
    return rng.standard_normal(n).astype(dt), rng.standard_normal(n).astype(dt)


@pytest.mark.parametrize(("dt", "n", "expected"), TORCH)
def test_a_dot_of_two_vectors_is_mkls_to_the_bit(dt: str, n: int, expected: str) -> None:
    a, b = _vectors(dt, n)
    got = matmul(Tensor(a), Tensor(b))
    assert got.dtype == np.dtype(dt) and got.shape == ()
    assert float(got.data).hex() == expected


def test_the_order_matters_where_it_is_checked() -> None:
    # NumPy's BLAS adds in another order: these sizes differ from PyTorch's somewhere, so the
    # comparison above can fail (a test of the test)
    differ = 0
    for dt, n, expected in TORCH:
        a, b = _vectors(dt, n)
        differ += float(np.dot(a, b)).hex() != expected
    assert differ >= 5


def test_strided_vectors_keep_the_plain_product() -> None:
    a = np.arange(10, dtype=np.float32)[::2]
    b = np.ones(5, dtype=np.float32)
    assert float(L._matmul_fwd(a, b)) == 20.0
