"""addmm's dtype checks in ATen's order and words, shared by torch.addmm, Tensor.addmm and
F.linear with a bias: the added tensor against mat2 first ("self and mat2 ..."), then mat1
against mat2 ("mat1 and mat2 ..."); torch.addmm used to say mm's words, and let a float32
scalar tensor be added to float64 products (PyTorch refuses). Complex addmm (beta, alpha
complex too) is the products' complex arithmetic."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers.programs import error, out

SELF = "self and mat2 must have the same dtype, but got {} and {}"
MATS = "mat1 and mat2 must have the same dtype, but got {} and {}"


@pytest.mark.parametrize(
    ("xd", "wd", "bd", "want"),
    [
        ("float64", "float32", "float64", SELF.format("Double", "Float")),
        ("float64", "float32", "float32", MATS.format("Double", "Float")),
        ("float32", "float32", "float64", SELF.format("Double", "Float")),
        ("float32", "complex64", "complex64", MATS.format("Float", "ComplexFloat")),
    ],
)
@pytest.mark.parametrize("call", ["F.linear(x, w, b)", "torch.addmm(b, x, w.t())"])
def test_dtype_checks_in_atens_order(xd: str, wd: str, bd: str, want: str, call: str) -> None:
    e = error(
        "import torch\nimport torch.nn.functional as F\n"
        f"x = torch.ones(2, 3, dtype=torch.{xd})\nw = torch.ones(4, 3, dtype=torch.{wd})\n"
        f"b = torch.ones(4, dtype=torch.{bd})\n{call}\n"
    )
    assert str(e).splitlines()[0].endswith(want)


def test_a_scalar_tensor_of_another_dtype_is_not_promoted() -> None:
    e = error(
        "import torch\nm = torch.ones(2, 2, dtype=torch.float64)\n"
        "torch.addmm(torch.tensor(1.0), m, m)\n"
    )
    assert SELF.format("Float", "Double") in str(e)


def test_complex_addmm_with_complex_alpha() -> None:
    a = np.array([[1 + 2j, 0.5], [-1j, 2 - 1j]])
    b = np.array([[0.25 - 1j, 1], [3j, -2]])
    c = np.array([1j, -0.5 + 0.5j])
    text = (
        "import torch\n"
        f"a = torch.tensor({a.tolist()}, dtype=torch.cdouble)\n"
        f"b = torch.tensor({b.tolist()}, dtype=torch.cdouble)\n"
        f"c = torch.tensor({c.tolist()}, dtype=torch.cdouble)\n"
        "r = torch.addmm(c, a, b, beta=0.5, alpha=2 - 1j)\n"
        "print([[(z.real, z.imag) for z in row] for row in r.tolist()])\n"
    )
    got = np.array([[complex(*p) for p in row] for row in eval(out(text))])
    np.testing.assert_allclose(got, 0.5 * c + (2 - 1j) * (a @ b), rtol=1e-15, atol=1e-15)
