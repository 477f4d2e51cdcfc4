"""F.grid_sample (modes bilinear and nearest, every padding, align_corners) and F.affine_grid:
values and both gradients bit for bit as PyTorch 2.13 on CPU, on random calls recorded with
torch (tests/surface/data/gridsample/record.py); the records' gradients against central
differences are tests/ops's; PyTorch's errors and warnings for wrong arguments."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.base.errors import GradcliError, NotSupported
from gradcli.core.autograd import grad
from gradcli.core.tensor import Tensor
from gradcli.surface import functional as F
from gradcli.surface import nnfunctional as NF
from tests.helpers import gradcheck as gc

HERE = Path(__file__).parent / "data" / "gridsample"
ROWS = json.loads((HERE / "results.json").read_text())
REC: dict = {}
exec(compile((HERE / "record.py").read_text(), str(HERE / "record.py"), "exec"), REC)  # noqa: S102


@pytest.mark.parametrize(
    "case", ROWS, ids=[f"{r['seed']}-{r['mode']}-{r['padding_mode']}-{r['dtype']}" for r in ROWS]
)
def test_values_and_gradients_are_pytorchs_bits(case: dict) -> None:
    x, g0, rng = REC["draw"](case)
    leaf, grid = Tensor(x, requires_grad=True), Tensor(g0, requires_grad=True)
    y = NF.grid_sample(leaf, grid, **REC["kwargs"](case))
    assert y.grad_fn.name() == "GridSampler2DBackward0"
    assert REC["digest"](y.data) == case["y"]
    g = rng.standard_normal(y.shape).astype(case["dtype"])
    gx, gg = grad(y, [leaf, grid], Tensor(g))
    assert REC["digest"](gx.data) == case["grad_input"]
    assert REC["digest"](gg.data) == case["grad_grid"]


def test_the_recording_covers_every_kernel() -> None:
    seen = {(r["mode"], r["padding_mode"], r["align_corners"], r["dtype"]) for r in ROWS}
    assert len(seen) == 2 * 3 * 2 * 2


def test_double_backward_matches_central_differences() -> None:
    """The gradient of the input gradient, in the grid (float64, bilinear, zeros)."""
    rng = np.random.default_rng(5)
    x0 = rng.standard_normal((1, 2, 3, 4))
    g0 = rng.uniform(-0.9, 0.9, (1, 2, 3, 2))
    v = rng.standard_normal(x0.shape)

    def inner(xs: list[np.ndarray]) -> float:
        leaf = Tensor(x0, requires_grad=True)
        y = NF.grid_sample(leaf, Tensor(xs[0]), align_corners=False)
        (gx,) = grad(F.sum(y * y), [leaf])
        return float(np.sum(gx.data * v))

    leaf, grid = Tensor(x0, requires_grad=True), Tensor(g0, requires_grad=True)
    y = NF.grid_sample(leaf, grid, align_corners=False)
    (gx,) = grad(F.sum(y * y), [leaf], create_graph=True)
    (gg,) = grad(F.sum(gx * Tensor(v)), [grid])
    (want,) = gc.numeric_grad(inner, [g0], [0])
    assert gc.rel_error(gg.data, want) <= 1e-6


def test_affine_grid_is_the_base_grid_times_theta() -> None:
    theta = np.array([[[0.9, -0.2, 0.1], [0.3, 1.1, -0.05]]])
    grid = NF.affine_grid(Tensor(theta), (1, 1, 2, 3), align_corners=False)
    xs, ys = np.array([-2 / 3, 0.0, 2 / 3]), np.array([-0.5, 0.5])
    want = np.zeros((1, 2, 3, 2))
    for i, y in enumerate(ys):
        for j, x in enumerate(xs):
            want[0, i, j] = theta[0] @ np.array([x, y, 1.0])
    assert gc.rel_error(grid.data, want) <= 1e-15
    assert grid.grad_fn is None
    t = Tensor(theta, requires_grad=True)
    out = NF.affine_grid(t, (1, 1, 2, 3), align_corners=True)
    assert out.grad_fn.name() == "AffineGridGeneratorBackward0"


ERRORS = [
    (
        {"mode": "bogus"},
        "ValueError",
        "nn.functional.grid_sample(): expected mode to be "
        "'bilinear', 'nearest' or 'bicubic', but got: 'bogus'",
    ),
    (
        {"padding_mode": "bogus"},
        "ValueError",
        "nn.functional.grid_sample(): expected "
        "padding_mode to be 'zeros', 'border', or 'reflection', but got: 'bogus'",
    ),
]


@pytest.mark.parametrize("kw, kind, words", ERRORS)
def test_wrong_modes_fail_with_pytorchs_words(kw, kind, words) -> None:
    with pytest.raises(GradcliError) as info:
        NF.grid_sample(Tensor(np.zeros((1, 1, 2, 2))), Tensor(np.zeros((1, 1, 1, 2))), **kw)
    assert info.value.args[0] == words and info.value.python_class == kind


def test_wrong_shapes_fail_with_pytorchs_words() -> None:
    x = Tensor(np.zeros((1, 2, 3, 4), np.float32))
    with pytest.raises(GradcliError, match="expected grid to have size 2 in last dimension"):
        NF.grid_sample(x, Tensor(np.zeros((1, 2, 2, 3), np.float32)), align_corners=False)
    with pytest.raises(GradcliError, match="expected grid and input to have same batch size"):
        NF.grid_sample(x, Tensor(np.zeros((2, 2, 2, 2), np.float32)), align_corners=False)
    with pytest.raises(GradcliError, match="expected scalar type Float but found Double"):
        NF.grid_sample(x, Tensor(np.zeros((1, 2, 2, 2))), align_corners=False)
    with pytest.raises(NotSupported):
        NF.grid_sample(x, Tensor(np.zeros((1, 2, 2, 2), np.float32)), mode="bicubic")
    t = Tensor(np.zeros((1, 2, 3)))
    with pytest.raises(GradcliError, match="affine_grid only supports 4D and 5D sizes"):
        NF.affine_grid(t, (1, 1, 3), align_corners=False)
    with pytest.raises(GradcliError, match="Expected a batch of 2D affine matrices"):
        NF.affine_grid(Tensor(np.zeros((2, 3))), (1, 1, 3, 4), align_corners=False)
