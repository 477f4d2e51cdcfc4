"""The fast paths of the per-operation overhead (issue 12's W3 and W4) give what the general
paths give: the same bits, dtype, graph and gradients, on the common case they take and on the
cases next to it that they leave to the general path."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli import Tensor
from gradcli.ops import arithmetic as A
from gradcli.ops import elementwise as E

EDGE = [0.0, -0.0, 1e-310, -2.5, 3.0, 0.5, 710.0, -710.0, np.inf, -np.inf, np.nan, 1e300]


def same_bits(a: object, b: object) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("name", ["sin", "cos", "exp", "log", "tanh", "erf", "log1p", "tan"])
@pytest.mark.parametrize("shape", ["vector", "strided", "0-d"])
def test_float64_shortcut_of_the_float32_wrappers(name: str, shape: str) -> None:
    """A native float64 array goes straight to NumPy's function; a float64 array of the other
    byte order (a dtype object that is not NumPy's float64 one) takes the general path: the
    same values."""
    op = getattr(E, name)
    x = np.asarray(EDGE, dtype=np.float64)
    x = x[::2] if shape == "strided" else x[4] if shape == "0-d" else x
    swapped = np.asarray(x, dtype=x.dtype.newbyteorder())
    assert x.dtype is E._F64 and swapped.dtype is not E._F64
    with np.errstate(all="ignore"):
        fast = np.asarray(op.forward(x))
        general = np.asarray(op.forward(swapped)).astype(np.float64)
    assert same_bits(fast, general)
    assert fast.dtype == np.float64


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_narrower_floats_still_round_once_from_float64(dtype: type) -> None:
    x = np.asarray(EDGE[:8], dtype=dtype)
    with np.errstate(all="ignore"):
        got = E.exp.forward(x)
        want = np.exp(x.astype(np.float64)).astype(dtype)
    assert same_bits(got, want)


def _product(a: object, b: object) -> Tensor:
    return A.mul_op(a, b)


def _general(a: object, b: object) -> Tensor:
    # mul_op before its shortcut: the tensor first, through `operands`
    return A.mul_t(b, a) if isinstance(b, Tensor) and not isinstance(a, Tensor) else A.mul_t(a, b)


NUMBERS = [2.0, -0.0, 3, 0, True, 1e300, float("inf"), float("nan"), 1.0001, -(2**70)]
DTYPES = [np.float64, np.float32, np.float16, np.int64, np.bool_, np.complex128]


@pytest.mark.parametrize("number", NUMBERS, ids=repr)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("side", ["left", "right"])
def test_scalar_product_shortcut_is_the_general_product(number, dtype, side) -> None:
    data = np.asarray([[1.5, -2.0, 0.0], [-0.0, 7.0, 65504.0]]).astype(dtype)
    results = []
    for f in (_product, _general):
        grad = np.dtype(dtype).kind == "f"
        x = Tensor(data.copy(), requires_grad=grad)
        try:
            with np.errstate(all="ignore"):
                y = f(number, x) if side == "left" else f(x, number)
        except Exception as e:  # noqa: BLE001 - both paths must fail alike
            results.append(("error", type(e).__name__, str(e)))
            continue
        entry = [y.data.dtype, y.data.tobytes(), y.requires_grad]
        if y.node is not None:
            n = y.node
            entry += [
                n.name(),
                [t is x for t in n.inputs],
                [(t.name, t.data.dtype, t.data.tobytes()) for t in n.inputs if t is not x],
            ]
            with np.errstate(all="ignore"):
                y.sum().backward()
            entry.append(x.grad.data.tobytes())
        results.append(entry)
    assert results[0] == results[1]


def test_scalar_product_of_a_tensor_subclass_takes_the_general_path() -> None:
    from gradcli.surface.nn import Parameter

    p = Parameter(Tensor(np.asarray([1.0, 2.0])))
    y = A.mul_op(p, 3.0)
    assert y.data.tolist() == [3.0, 6.0]
    assert y.node is not None and y.node.inputs[0] is p
