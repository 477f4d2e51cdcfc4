"""Calling a grad_fn node (`y.grad_fn(g)`, as in some forum answers) is refused in words with
what to write instead; it was "'Node' object is not callable", Python's own phrase."""

from __future__ import annotations

import pytest

from gradcli.base.errors import NotSupported
from gradcli.lang.program import parse


@pytest.mark.parametrize(
    "call",
    [
        "y.grad_fn(torch.ones(2))",
        "y.grad_fn(None, torch.ones(2))",
        "y.grad_fn.next_functions[0][0](torch.ones(2))",
        "f = y.grad_fn\nf(torch.ones(2))",
    ],
)
def test_calling_a_node_is_refused_in_words(call: str) -> None:
    program = parse(
        "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * 2).exp()\n" + call, "t.py"
    )
    with pytest.raises(NotSupported, match=r"calling a grad_fn node .* is not supported") as e:
        program.run()
    assert "torch.autograd.grad" in str(e.value.hint)
