"""NumPy's set, NaN-skipping, quantile and shape helpers and the array methods that are NumPy
functions (probe40): each result compared with NumPy's own on the same data, a tensor operand
refused with the tensor's way as the hint."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse("import numpy as np\nimport torch\n" + text, "t.py").run().output)


def test_results_are_numpys() -> None:
    f = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, np.nan], [7.0, 8.0, 9.0]])
    a = np.arange(24).reshape(2, 3, 4)
    exprs = [
        ("np.setxor1d([1, 2, 3], [2, 3, 4])", np.setxor1d([1, 2, 3], [2, 3, 4])),
        ("np.nanquantile(f, [0.25, 0.9], axis=0)", np.nanquantile(f, [0.25, 0.9], axis=0)),
        ("np.nanargmax(f, axis=1)", np.nanargmax(f, axis=1)),
        ("np.rollaxis(a, 2, 1).shape", np.rollaxis(a, 2, 1).shape),
        ("a.swapaxes(0, 2)[1]", a.swapaxes(0, 2)[1]),
        ("a[0].diagonal(1)", a[0].diagonal(1)),
        ("a.take([1, -1], axis=2)", a.take([1, -1], axis=2)),
        ("np.iinfo(np.int8).min", np.iinfo(np.int8).min),
        ("a.item(1, 2, 3)", a.item(1, 2, 3)),
        ("a[0].flatten('F')", a[0].flatten("F")),
        ("a[1].ravel(order='F')", a[1].ravel(order="F")),
    ]
    prog = f"f = np.array({f.tolist()})\na = np.arange(24).reshape(2, 3, 4)\n".replace(
        "nan", "np.nan"
    ) + "".join(f"print({e})\n" for e, _ in exprs)
    assert out(prog) == "".join(f"{v}\n" for _, v in exprs)


def test_tensor_operands_are_refused() -> None:
    with pytest.raises(GradcliError, match="of a tensor is not supported"):
        out("np.setdiff1d(torch.arange(3), [1])\n")
    with pytest.raises(GradcliError, match="Invalid integer data type"):
        out("np.iinfo(np.float64)\n")
