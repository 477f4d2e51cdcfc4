"""Operations that promote nothing in PyTorch 2.13, and its words (explore81: each gave an
answer before, in a promoted dtype): index_put's value (but a mask with one value, which is
masked_fill_), cross, tensordot, layer_norm's parameters (float32 ones with a float16 input:
computed in float32, given in float16), and softmax's kernel names for an integer tensor."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, NotSupported
from gradcli.lang.program import parse

_PRELUDE = (
    "import torch\nimport torch.nn.functional as F\n"
    "x = torch.zeros(4)\ni = torch.tensor([1, 3])\n"
    "d = torch.tensor([0.5, 0.25], dtype=torch.float64)\n"
)


def out(text: str) -> str:
    return "".join(parse(_PRELUDE + text, "t.py").run(dtype="float32").output)


_PUT = "Index put requires the source and destination dtypes match, got Float for the destination"


@pytest.mark.parametrize(
    "stmt, message",
    [
        ("x[i] = d", _PUT + " and Double for the source."),
        ("x[[0, 2]] = torch.tensor([1, 2])", _PUT + " and Long for the source."),
        ("x[i] = d[0]", _PUT + " and Double for the source."),
        ("x.index_put_((i,), d)", _PUT + " and Double for the source."),
        ("x.index_put((x > 0,), d[0], accumulate=True)", _PUT + " and Double for the source."),
        (
            "torch.linalg.cross(torch.ones(3), torch.ones(3).double())",
            "expected scalar type Float but found Double",
        ),
        (
            "torch.cross(torch.ones(3).long(), torch.ones(3), dim=0)",
            "expected scalar type Long but found Float",
        ),
        (
            "torch.tensordot(torch.ones(2, 2), torch.ones(2, 2).double(), 1)",
            "both inputs should have same dtype",
        ),
        (
            "torch.softmax(torch.tensor([[1, 2]]), 0)",
            "\"softmax_kernel_impl\" not implemented for 'Long'",
        ),
        ("torch.log_softmax(torch.tensor([[1, 2]]), 1)", '"log_softmax_lastdim_kernel_impl" not'),
        (
            "F.layer_norm(torch.ones(2, 3), (3,), torch.ones(3).double())",
            "expect parameter to have scalar type of Float",
        ),
        (
            "F.layer_norm(torch.ones(2, 3).double(), (3,), torch.ones(3))",
            "all inputs must share same datatype.",
        ),
        (
            "F.layer_norm(torch.ones(2, 3), (3,), torch.ones(3), d.repeat(2)[:3])",
            "expected scalar type Float but found Double",
        ),
    ],
)
def test_refused_in_pytorchs_words(stmt: str, message: str) -> None:
    with pytest.raises(GradcliError) as e:
        out(stmt + "\n")
    assert message in e.value.message


def test_what_is_taken() -> None:
    got = out(
        "x[1] = torch.tensor(7)\nx[x > 1] = torch.tensor(9, dtype=torch.int32)\nx[:1] = d[:1]\n"
        "print(x, x.index_put((i,), torch.ones(2), accumulate=True))\n"
        "h = torch.tensor([[1.0, 2.0, 4.0]]).half()\n"
        "y = F.layer_norm(h, (3,), torch.ones(3), torch.zeros(3))\n"
        "print(y.dtype, y.tolist())\n"
    )
    assert got == (
        "tensor([0.5000, 9.0000, 0.0000, 0.0000]) tensor([ 0.5000, 10.0000,  0.0000,  1.0000])\n"
        "torch.float16 [[-1.0693359375, -0.267333984375, 1.3359375]]\n"
    )


def test_mixed_layer_norm_with_trained_parameters_is_refused() -> None:
    with pytest.raises(NotSupported) as e:
        out("m = torch.nn.LayerNorm(3)\ny = m(torch.ones(2, 3).half())\n")
    assert "float16 input with float32 parameters that require grad" in e.value.message
