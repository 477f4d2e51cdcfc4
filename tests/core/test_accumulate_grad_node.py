"""A leaf's AccumulateGrad node (explore29): PyTorch's node lives only while something holds
it, so a hook put on it through a temporary view (a forum workaround) is lost; gradcli does not
model that lifetime and refuses node hooks on it in plain words, naming the tensor hooks to use
instead, rather than an AttributeError PyTorch would not raise."""

from __future__ import annotations

import pytest

from gradcli.base.errors import NotSupported
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


@pytest.mark.parametrize("method", ["register_hook", "register_prehook"])
def test_hooks_on_an_accumulate_grad_node_are_refused_with_what_to_write(method: str) -> None:
    with pytest.raises(NotSupported, match=f"{method} on a leaf's AccumulateGrad node") as info:
        out(
            "import torch\nw = torch.ones(2, requires_grad=True)\n"
            f"(w * 2).grad_fn.next_functions[0][0].{method}(print)\n"
        )
    assert "register_post_accumulate_grad_hook" in (info.value.hint or "") or method.endswith(
        "prehook"
    )
    assert info.value.span is not None and info.value.span.line == 3


def test_the_node_still_shows_its_name_and_variable() -> None:
    got = out(
        "import torch\nw = torch.ones(2, requires_grad=True)\n"
        "acc = (w * 2).grad_fn.next_functions[0][0]\n"
        "print(acc.name(), acc.variable is w, acc.next_functions)\n"
    )
    assert got == "torch::autograd::AccumulateGrad True ()\n"
