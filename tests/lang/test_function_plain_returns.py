"""A custom autograd.Function's forward may return a value that is not a tensor (a number,
None, a list, a string): PyTorch hands it back untouched and records no node; a tuple still
makes the Function's outputs. Expected texts are PyTorch 2.13's (checked with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse

FN = """import torch
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, kind):
        if kind == 0:
            return t.sum().item()
        if kind == 1:
            return None
        if kind == 2:
            return [t * 2, 3]
        if kind == 3:
            return "done"
        return (t * 3, 7)
    @staticmethod
    def backward(ctx, g, g2=None):
        return g * 3, None
x = torch.tensor([1.0, 2.0], requires_grad=True)
"""


def run(body: str) -> str:
    result = parse(FN + body + "\n", "t.py").run(dtype="float32")
    return "".join(result.output)


@pytest.mark.parametrize(
    "kind, shown",
    [
        (0, "float 3.0"),
        (1, "NoneType None"),
        (2, "list [tensor([2., 4.]), 3]"),
        (3, "str done"),
    ],
)
def test_plain_value_comes_back_as_forward_returned_it(kind: int, shown: str) -> None:
    assert run(f"r = F.apply(x, {kind})\nprint(type(r).__name__, r)") == shown + "\n"


def test_tuple_still_records_the_tensor_outputs() -> None:
    out = run("a, b = F.apply(x, 4)\nprint(a, b)\na.sum().backward()\nprint(x.grad)")
    assert out == "tensor([3., 6.], grad_fn=<FBackward>) 7\ntensor([3., 3.])\n"


def test_plain_value_under_no_grad() -> None:
    assert run("with torch.no_grad():\n    print(F.apply(x, 0))") == "3.0\n"
