"""The memory layout of ops' results on transposed and permuted inputs, as PyTorch 2.13 lays
them out: flip, sort (values and indices) and rand_like keep the input's order of strides
(ATen writes them into empty_like(input)); masked_fill, tril/triu and cummax are row-major
whatever the input. The strides decide `.stride()`, `.is_contiguous()`, whether `.view()`
is allowed and the order in which a later in-place draw fills the tensor.

The expected strides were printed by PyTorch 2.13 for the same programs."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.tensor import Settings
from gradcli.lang.program import parse


@pytest.fixture(autouse=True)
def _settings_restored():
    saved = (Settings.default_dtype, Settings.draw_dtype, Settings.seed)
    yield
    Settings.default_dtype, Settings.draw_dtype, Settings.seed = saved


def _printed(body: str) -> str:
    src = "import torch\ntorch.manual_seed(0)\n" + body
    return "".join(parse(src, "layouts.py").run(dtype="float32").output).strip()


# (expression of y = x.t() with x 3x4, and of z = a (2, 3, 4) tensor permuted to (4, 2, 3)),
# PyTorch's strides of each
CASES = [
    ("a.flip(0)", (1, 4), (1, 12, 4)),
    ("torch.flip(a, [0, 1])", (1, 4), (1, 12, 4)),
    ("a.sort(dim=0)[0]", (1, 4), (1, 12, 4)),
    ("a.sort(dim=0)[1]", (1, 4), (1, 12, 4)),
    ("a.argsort(dim=-1)", (1, 4), (1, 12, 4)),
    ("a.topk(2, dim=0)[0]", (3, 1), (6, 3, 1)),
    ("torch.rand_like(a)", (1, 4), (1, 12, 4)),
    ("torch.randn_like(a)", (1, 4), (1, 12, 4)),
    ("a.masked_fill(a > 2, 0.)", (3, 1), (6, 3, 1)),
    ("a.tril()", (3, 1), (6, 3, 1)),
    ("a.cummax(0)[0]", (3, 1), (6, 3, 1)),
    ("a.cummax(0)[1]", (3, 1), (6, 3, 1)),
    ("a * 2", (1, 4), (1, 12, 4)),
]


@pytest.mark.parametrize(("expr", "two", "three"), CASES, ids=[c[0] for c in CASES])
def test_strides_are_pytorchs(expr: str, two: tuple, three: tuple) -> None:
    body = (
        "y = torch.arange(12.).reshape(3, 4).t()\n"
        "z = torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1)\n"
        f"a = y\nprint(({expr}).stride())\na = z\nprint(({expr}).stride())\n"
    )
    assert _printed(body).splitlines() == [str(two), str(three)]


def test_view_after_flip_of_a_transpose_is_refused_as_pytorch_refuses_it() -> None:
    out = _printed(
        "y = torch.arange(12.).reshape(3, 4).t().flip(0)\n"
        "try:\n    y.view(-1)\nexcept RuntimeError as e:\n    print(e)\n"
    )
    assert out.startswith("view size is not compatible with input tensor's size and stride")


def test_values_and_gradients_do_not_depend_on_the_layout() -> None:
    """The same values as a row-major computation, and the gradient of flip and sort through
    a transpose is central finite differences' (float64)."""
    rng = np.random.default_rng(5)
    w = rng.standard_normal((3, 4))
    c = rng.standard_normal((4, 3))
    rows = ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in w)
    crow = ", ".join("[" + ", ".join(repr(float(v)) for v in r) + "]" for r in c)
    out = _printed(
        f"w = torch.tensor([{rows}], dtype=torch.float64, requires_grad=True)\n"
        f"c = torch.tensor([{crow}], dtype=torch.float64)\n"
        "v = torch.sort(w.t().flip(0), dim=1)[0]\n"
        "(v * c).sum().backward()\n"
        "print(w.grad.tolist())\nprint(v.tolist())\n"
    )
    grad_line, values_line = out.splitlines()

    def f(m: np.ndarray) -> float:
        return float((np.sort(m.T[::-1], axis=1) * c).sum())

    fd = np.zeros_like(w)
    for i in np.ndindex(w.shape):
        e = np.zeros_like(w)
        e[i] = 1e-6
        fd[i] = (f(w + e) - f(w - e)) / 2e-6
    np.testing.assert_allclose(np.array(eval(grad_line)), fd, rtol=1e-7, atol=1e-8)
    assert np.array(eval(values_line)).tolist() == np.sort(w.T[::-1], axis=1).tolist()
