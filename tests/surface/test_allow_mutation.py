"""allow_mutation_on_saved_tensors: a backward pass inside the block gives the gradients of the
values the graph saved, whatever the program changed in place since. The oracle is the same
program without the changes (the gradients must be identical, bit for bit), for ops that save
their inputs, their output or both, and one or two changes through the tensor, a view of it,
`.data`, item assignment, under no_grad. (A change through a view that starts elsewhere in
the storage is not matched, as in PyTorch, and a consumer recorded between two changes: both
are compared with PyTorch in the corpus, 862 and 866.)"""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

FORWARD = """
import torch
torch.manual_seed({seed})
torch.set_default_dtype(torch.float64)
x = torch.randn({n}, requires_grad=True)
w = torch.randn({n}, requires_grad=True)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    h = x * 1.5
    a = ({expr}).sum()
    b = (h.exp() * w).sum()
{change}
{change2}
    (a + b).backward()
print(x.grad.tolist(), w.grad.tolist())
"""

EXPRS = ["h.sin() * w", "h ** 3", "h.exp()", "torch.tanh(h) * h", "(h * w).sigmoid()", "h @ w"]
CHANGES = [
    "    h.mul_(2)",
    "    h.zero_()",
    "    h[0] = 7.0",
    "    h[:3].add_(1)",
    "    h.data.fill_(3.0)",
    "    with torch.no_grad():\n        h.sin_()",
]


def _grads(text: str) -> str:
    return "".join(parse(text, "prog.py").run().output)


@pytest.mark.parametrize("expr", EXPRS)
@pytest.mark.parametrize("change", CHANGES)
def test_gradients_are_the_unchanged_programs(expr: str, change: str) -> None:
    kw = {"seed": len(expr) + len(change), "n": 5, "expr": expr}
    changed = FORWARD.format(change=change, change2="    h.add_(0.25)", **kw)
    plain = FORWARD.format(change="    pass", change2="    pass", **kw)
    got, expected = _grads(changed), _grads(plain)
    assert got == expected


def test_without_the_block_the_change_is_refused() -> None:
    text = (
        "import torch\nx = torch.ones(3, requires_grad=True)\nh = x * 2\n"
        "y = (h ** 2).sum()\nh.mul_(3)\ny.backward()\n"
    )
    with pytest.raises(GradcliError, match="modified by an inplace operation"):
        parse(text, "prog.py").run()


def test_the_oracle_can_fail() -> None:
    """The comparison sees a change that reaches the gradient: here the change happens before
    the value is saved, so the two programs differ."""
    before = FORWARD.format(seed=1, n=4, expr="h ** 3", change="    pass", change2="    pass")
    changed = before.replace("    h = x * 1.5\n", "    h = x * 1.5\n    h.mul_(2)\n")
    assert changed != before
    assert _grads(before) != _grads(changed)
