"""Products inside vmap are PyTorch's batched products: PyTorch runs a vmapped function once and
its batching rules (functorch's BatchRulesLinearAlgebra) turn a dot, mv or mm of a batched
operand into one product of the whole batch (a folded mm, an mv of the stacked rows, a bmm),
whose float32 sums are in another order than one element's product. gradcli runs the function
once per element and takes each element's result from that batched product
(`ops.arithmetic.vmap_product`).

`data/vmapmm/products.py` runs under torch and gradcli alike; `expected.txt` is its output under
torch 2.13 (the sum of the results' bit patterns per case: one ulp anywhere changes it)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gradcli.lang.program import parse
from gradcli.ops import arithmetic

DATA = Path(__file__).parent / "data" / "vmapmm"


def run(source: str, dtype: str = "float32") -> str:
    return "".join(parse(source, "t.py").run(dtype=dtype).output)


def _lines() -> list[str]:
    return run((DATA / "products.py").read_text()).splitlines()


def test_vmapped_products_are_pytorchs_bits(monkeypatch) -> None:
    # a long program (every case, exact float32 chains): the suite's 10 s budget is not
    # enough on a slow or loaded machine
    monkeypatch.setenv("GRADCLI_TIME_SECONDS", "120")
    want = (DATA / "expected.txt").read_text().splitlines()
    got = _lines()
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g == w


def test_the_recorded_bits_tell_the_per_element_products_apart(monkeypatch) -> None:
    """Each element's own product (what gradcli computed before) differs from the recorded
    bits on most lines: the test above can fail."""
    monkeypatch.setattr(arithmetic, "vmap_product", lambda x, y: None)
    monkeypatch.setenv("GRADCLI_TIME_SECONDS", "120")  # (as long a program as the test above)
    want = (DATA / "expected.txt").read_text().splitlines()
    got = _lines()
    differ = sum(g != w for g, w in zip(got, want))
    assert differ >= len(want) // 2


CONSISTENT = """
import torch
import torch.nn.functional as F
from torch.func import vmap
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    for B, k, n in ((1, 5, 3), (3, 1, 4), (7, 31, 33), (20, 17, 2), (16, 400, 5)):
        W = torch.randn(n, k, dtype=dt)
        b = torch.randn(n, dtype=dt)
        X = torch.randn(B, k, dtype=dt)
        print(torch.equal(vmap(F.linear, in_dims=(0, None, None))(X, W, b), F.linear(X, W, b)),
              torch.equal(vmap(lambda x: x @ W.t())(X), X @ W.t()),
              torch.equal(vmap(lambda w: X @ w)(W), (X @ W.t()).t()),
              torch.equal(vmap(torch.dot, in_dims=(0, None))(X, X[0]), X @ X[0]),
              torch.equal(vmap(torch.mv, in_dims=(None, 0))(W, X), (W @ X.t()).t()))
"""


# PyTorch 2.13's output of CONSISTENT: F.linear of a batch (addmm) fuses the bias into a product
# of inner size 1 and adds it first past MKL's inner blocks (384 in float32, 192 in float64);
# vmap's decomposition (add(bias, mm)) adds it after: vmap(F.linear)(X) is not F.linear(X)
# there. The same lines for float32 and float64.
TORCH_CONSISTENT = [
    "True True True True True",
    "False True True True True",
    "True True True True True",
    "True True True True True",
    "False True True True True",
]


def test_vmap_of_a_product_is_the_batched_product_in_float32_and_float64() -> None:
    """vmap(f)(X) is f(X) where PyTorch's batching rule computes exactly f(X)'s product (the
    rows of one mm, the columns of a product by W), float64 included; F.linear's bias as
    vmap's decomposition adds it."""
    got = run(CONSISTENT).splitlines()
    assert got[:5] == TORCH_CONSISTENT
    assert got[5:] == TORCH_CONSISTENT


def test_gradients_through_vmapped_products_match_finite_differences() -> None:
    got = run(
        "import torch\n"
        "from torch.func import vmap, jacrev\n"
        "torch.manual_seed(4)\n"
        "W = torch.randn(3, 5, dtype=torch.float64)\n"
        "X = torch.randn(4, 5, dtype=torch.float64)\n"
        "f = lambda x: torch.sin(W @ x) @ W\n"
        "J = vmap(jacrev(f))(X)\n"
        "h = 1e-6\n"
        "for i in range(4):\n"
        "    for j in range(5):\n"
        "        e = torch.zeros(5, dtype=torch.float64)\n"
        "        e[j] = h\n"
        "        fd = (f(X[i] + e) - f(X[i] - e)) / (2 * h)\n"
        "        print(bool((J[i, :, j] - fd).abs().max() < 1e-8))\n",
        dtype="float64",
    )
    assert got.split() == ["True"] * 20


@pytest.mark.parametrize(
    ("shape1", "shape2"),
    [
        ((5,), (5,)),
        ((4, 5), (5,)),
        ((5,), (5, 3)),
        ((4, 5), (5, 3)),
        ((2, 4, 5), (5, 3)),
        ((4, 5), (2, 5, 3)),
        ((2, 4, 5), (2, 5, 3)),
        ((2, 4, 5), (5,)),
        ((1, 4, 5), (3, 5, 2)),
    ],
)
def test_aten_matmul_is_matmul(shape1: tuple, shape2: tuple) -> None:
    """The array-level at::matmul (its dispatch to dot, mv, mm, folded mm and bmm) computes the
    product of any operands (in float64, to rounding), with or without grad flags."""
    from gradcli.ops.linalg import aten_matmul

    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(shape1), rng.standard_normal(shape2)
    for g1 in (False, True):
        for g2 in (False, True):
            got = aten_matmul(a, b, g1, g2)
            want = np.matmul(a, b)
            assert got.shape == want.shape
            assert np.allclose(got, want, rtol=1e-12, atol=1e-12)
