"""A program's own attribute on a built-in module under a name with underscores
(`layer.__name__ = name` as hook tutorials write, `m._tag = ...`): kept and read back as
PyTorch's Module keeps it; the module's own tables and Python's names of the object are
refused in plain words. Expected text is PyTorch 2.13's (checked with /work/torchenv)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = "import torch\nfrom torch import nn\nm = nn.Linear(2, 3)\n"


def out(body: str) -> str:
    return "".join(parse(HEAD + body, "t.py").run().output).strip()


def test_kept_and_read_back() -> None:
    body = (
        "m.__name__ = 'fc1'\nm._tag = [1, 2]\nm._child = nn.ReLU()\n"
        "print(m.__name__, m._tag, hasattr(m, '__name__'), hasattr(m, '_tag'))\n"
        "print(m)\nprint([n for n, _ in m.named_children()])\n"
        "del m._tag\nprint(hasattr(m, '_tag'))\n"
    )
    assert out(body) == (
        "fc1 [1, 2] True True\n"
        "Linear(\n  in_features=2, out_features=3, bias=True\n  (_child): ReLU()\n)\n"
        "['_child']\nFalse"
    )


def test_a_forward_hook_reads_the_name_each_layer_was_given() -> None:
    body = (
        "net = nn.Sequential(nn.Linear(2, 2), nn.ReLU())\n"
        "for name, layer in net.named_modules():\n"
        "    layer.__name__ = name\n"
        "    layer.register_forward_hook(lambda mod, i, o: print(f'{mod.__name__}: {o.shape}'))\n"
        "y = net(torch.ones(1, 2))\n"
    )
    assert out(body) == "0: torch.Size([1, 2])\n1: torch.Size([1, 2])\n: torch.Size([1, 2])"


@pytest.mark.parametrize(
    "line", ["m._parameters = {}", "m._forward_hooks = {}", "m._version = 2", "m._apply = print"]
)
def test_the_modules_own_tables_are_refused(line: str) -> None:
    with pytest.raises(GradcliError, match="is not supported: it is one of the module's own"):
        out(line + "\n")
