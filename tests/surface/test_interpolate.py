"""F.interpolate as PyTorch 2.13 computes it on CPU, bit for bit: every mode but area (whose
pooling is tested with adaptive_avg_pool) on random calls recorded with torch
(tests/surface/data/interp/record.py: values, input gradients and grad_fn names), the
gradients of the records against float64 central differences (tests/ops picks the records
up too), and PyTorch's errors for wrong arguments."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.core.autograd import grad
from gradcli.core.tensor import Tensor
from gradcli.surface import functional as F
from gradcli.surface import nnfunctional as NF
from tests.helpers import gradcheck as gc

HERE = Path(__file__).parent / "data" / "interp"
ROWS = json.loads((HERE / "results.json").read_text())


def _recorder():
    """The recording script's drawing functions (it imports torch only in `main`'s use)."""
    src = (HERE / "record.py").read_text()
    src = src.replace("import torch\nimport torch.nn.functional as F\n", "")
    src = src.replace("torch.set_num_threads(1)\n", "")
    ns: dict = {}
    exec(compile(src, str(HERE / "record.py"), "exec"), ns)  # noqa: S102 - our own script
    return ns


REC = _recorder()


@pytest.mark.parametrize("case", ROWS, ids=[f"{r['seed']}-{r['mode']}-{r['dtype']}" for r in ROWS])
def test_values_and_gradients_are_pytorchs_bits(case: dict) -> None:
    x, rng = REC["draw"](case)
    leaf = Tensor(x, requires_grad=True)
    y = NF.interpolate(leaf, **REC["kwargs"](case))
    assert y.grad_fn.name() == case["grad_fn"]
    assert REC["digest"](y.data) == case["y"]
    g = rng.standard_normal(y.shape).astype(case["dtype"])
    (gx,) = grad(y, [leaf], Tensor(g))
    assert REC["digest"](gx.data) == case["grad"]


def test_the_recording_covers_every_kernel() -> None:
    modes = {(r["mode"], r["dtype"]) for r in ROWS}
    for mode in ("linear", "bilinear", "bicubic", "trilinear", "nearest", "nearest-exact"):
        assert (mode, "float32") in modes and (mode, "float64") in modes
    big = [r for r in ROWS if r["mode"] == "bilinear" and sum(r.get("size", [0])) > 128]
    lanes = [r for r in ROWS if r["mode"] == "bilinear" and r["shape"][1] >= 16]
    assert big and lanes


@pytest.mark.parametrize(
    "mode, shape, kw",
    [
        ("linear", (1, 2, 4), {"size": 7}),
        ("linear", (2, 1, 5), {"scale_factor": 0.6, "align_corners": True}),
        ("bilinear", (1, 2, 3, 2), {"size": (4, 5)}),
        ("bilinear", (1, 1, 4, 3), {"scale_factor": 0.75, "align_corners": True}),
        ("bicubic", (1, 1, 3, 4), {"size": (5, 3)}),
        ("bicubic", (1, 2, 2, 3), {"scale_factor": 1.5, "align_corners": True}),
        ("trilinear", (1, 1, 2, 3, 2), {"size": (3, 2, 4)}),
        ("nearest", (1, 1, 2, 2, 3), {"scale_factor": 1.5}),
        ("nearest-exact", (1, 2, 3, 5), {"size": (4, 2)}),
        ("area", (1, 1, 4, 6), {"size": (3, 4)}),
    ],
)
def test_gradients_match_central_differences(mode: str, shape: tuple, kw: dict) -> None:
    """The whole surface call's gradient, in float64 (the records' second order: tests/ops)."""
    rng = np.random.default_rng(len(shape) * 7 + len(mode))
    x0 = rng.standard_normal(shape)
    y0 = NF.interpolate(Tensor(x0), mode=mode, **kw)
    w = rng.standard_normal(y0.shape)

    def value(xs: list[np.ndarray]) -> float:
        return float(np.sum(NF.interpolate(Tensor(xs[0]), mode=mode, **kw).data * w))

    leaf = Tensor(x0, requires_grad=True)
    y = NF.interpolate(leaf, mode=mode, **kw)
    (gx,) = grad(F.sum(y * Tensor(w)), [leaf])
    (want,) = gc.numeric_grad(value, [x0], [0])
    assert gc.rel_error(gx.data, want) <= 1e-7


def test_bilinear_backward_of_backward_is_the_forward() -> None:
    """The adjoint's gradient (double backward) is the interpolation again."""
    x = Tensor(np.random.default_rng(1).standard_normal((1, 1, 3, 3)), requires_grad=True)
    y = NF.interpolate(x, size=(5, 4), mode="bilinear")
    g = Tensor(np.ones(y.shape), requires_grad=True)
    (gx,) = grad(y, [x], g, create_graph=True)
    v = Tensor(np.random.default_rng(2).standard_normal(x.shape))
    (gg,) = grad(F.sum(gx * v), [g])
    want = NF.interpolate(v, size=(5, 4), mode="bilinear")
    assert np.array_equal(gg.data, want.data)


ERRORS = [
    (
        (1, 1, 3),
        {"scale_factor": 2, "mode": "bilinear"},
        "NotImplementedError",
        "Got 3D input, but bilinear mode needs 4D input",
    ),
    (
        (1, 1, 3, 3),
        {"scale_factor": 2, "mode": "linear"},
        "NotImplementedError",
        "Got 4D input, but linear mode needs 3D input",
    ),
    (
        (1, 1, 3, 3),
        {"scale_factor": 2, "mode": "bogus"},
        "NotImplementedError",
        "Input Error: Only 3D, 4D and 5D input Tensors supported (got 4D) for the modes: nearest "
        "| linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact (got bogus)",
    ),
    (
        (1, 1, 3, 3),
        {"scale_factor": 0.2, "mode": "bilinear"},
        None,
        "Input and output sizes should be greater than 0, but got input (H: 3, W: 3) output "
        "(H: 0, W: 0)",
    ),
    (
        (1, 1, 3),
        {"size": 0, "mode": "linear"},
        None,
        "Input and output sizes should be greater than 0, but got input (W: 3) and output (W: 0)",
    ),
    (
        (1, 1, 3, 3),
        {"size": (2, 3), "mode": "bilinear", "recompute_scale_factor": True},
        "ValueError",
        "recompute_scale_factor is not meaningful with an explicit size.",
    ),
    (
        (1, 1, 3, 3),
        {"size": (2.5, 3), "mode": "bilinear"},
        "TypeError",
        "expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, int], "
        "but got size with types [<class 'float'>, <class 'int'>]",
    ),
    (
        (1, 1, 3),
        {"size": 4, "mode": "nearest", "align_corners": True},
        "ValueError",
        "align_corners option can only be set with the interpolating modes: linear | bilinear | "
        "bicubic | trilinear",
    ),
    (
        (1, 1, 3),
        {"size": 4, "mode": "linear", "antialias": True},
        "ValueError",
        "Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a "
        "4-D tensor as input",
    ),
]


@pytest.mark.parametrize("shape, kw, kind, words", ERRORS)
def test_wrong_arguments_fail_with_pytorchs_words(shape, kw, kind, words) -> None:
    with pytest.raises(GradcliError) as info:
        NF.interpolate(Tensor(np.zeros(shape)), **kw)
    assert str(info.value.args[0]) == words
    if kind:
        assert info.value.python_class == kind


def test_integer_inputs_fail_as_in_pytorch() -> None:
    x = Tensor(np.arange(4).reshape(1, 1, 4))
    with pytest.raises(GradcliError, match='"compute_indices_weights_linear" not implemented'):
        NF.interpolate(x, scale_factor=1.5, mode="linear")
