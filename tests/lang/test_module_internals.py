"""What programs read of a module's internals (`m._modules`, `m._parameters.items()`,
`m._forward_hooks`, `m._version`...) and `hasattr` on modules, tensors and torch's modules:
PyTorch 2.13's answers (corpus 727 holds PyTorch's own text); a name PyTorch's Module has that
gradcli lacks is refused in plain words, while `hasattr` answers True as PyTorch does."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError, NotSupported
from gradcli.lang.program import parse

HEAD = (
    "import torch\nimport torch.nn as nn\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.fc = nn.Linear(2, 2)\n"
    "        self._hidden = 3\n"
    "    def forward(self, x):\n"
    "        return self.fc(x)\n"
    "net = Net()\nlin = nn.Linear(2, 2)\n"
)


def run(body: str) -> str:
    return "".join(parse(HEAD + body, "t.py").run(dtype="float32").output)


@pytest.mark.parametrize("owner", ["net", "lin", "net.fc"])
def test_hook_tables_count_the_registered_hooks_in_order(owner: str) -> None:
    got = run(
        f"m = {owner}\n"
        "a = m.register_forward_hook(lambda m, i, o: None)\n"
        "b = m.register_forward_hook(lambda m, i, o: None)\n"
        "p = m.register_forward_pre_hook(lambda m, i: None)\n"
        "print(len(m._forward_hooks), len(m._forward_pre_hooks))\n"
        "a.remove()\n"
        "print(len(m._forward_hooks), m._is_full_backward_hook)\n"
        "m.register_backward_hook(lambda m, gi, go: None)\n"
        "print(m._is_full_backward_hook, len(m._backward_hooks))\n"
    )
    assert got == "2 1\n1 None\nFalse 1\n"


def test_tables_and_settings() -> None:
    got = run(
        "net.register_buffer('mask', torch.ones(2), persistent=False)\n"
        "print(net._version, net.dump_patches, net.call_super_init)\n"
        "print(net._non_persistent_buffers_set, net._state_dict_hooks)\n"
        "print(list(net._modules), list(lin._parameters.keys()), list(net._buffers))\n"
        "print(net._hidden, getattr(net, '_hidden'))\n"
    )
    assert got == "1 False False\n{'mask'} OrderedDict()\n['fc'] ['weight', 'bias'] ['mask']\n3 3\n"


@pytest.mark.parametrize(
    ("expr", "answer"),
    [
        ("hasattr(lin, '_apply')", "True"),
        ("hasattr(net, 'to_empty')", "True"),
        ("hasattr(net, '_load_from_state_dict')", "True"),
        ("hasattr(net, 'cuda')", "True"),
        ("hasattr(net, '_forward_hooks')", "True"),
        ("hasattr(net, 'no_such_thing')", "False"),
        ("hasattr(lin, '_hidden')", "False"),
        ("hasattr(net, '_hidden')", "True"),
        ("hasattr(torch.ones(1), 'pin_memory')", "True"),
        ("hasattr(torch.ones(1), 'no_such_method')", "False"),
    ],
)
def test_hasattr_answers_as_pytorch(expr: str, answer: str) -> None:
    assert run(f"print({expr})\n") == answer + "\n"


@pytest.mark.parametrize("name", ["_apply", "_load_from_state_dict", "_call_impl"])
def test_what_gradcli_lacks_is_refused_in_plain_words(name: str) -> None:
    with pytest.raises(NotSupported, match=rf"`Linear\.{name}` \(nn.Module's\) is not supported"):
        run(f"f = lin.{name}\n")


def test_cuda_fails_as_for_tensors() -> None:
    with pytest.raises(GradcliError, match=r"Torch not compiled with CUDA enabled"):
        run("net.cuda()\n")


@pytest.mark.parametrize("owner", ["net", "lin"])
def test_hooks_with_kwargs_see_and_replace_the_keyword_arguments(owner: str) -> None:
    """with_kwargs=True: a pre-hook gets (module, args, kwargs) and may return a new pair; a
    forward hook gets (module, args, kwargs, output); PyTorch's `_..._with_kwargs` tables list
    them; any other return of such a pre-hook is PyTorch's RuntimeError."""
    fwd = "def forward(self, x, k=1.0):\n        return self.fc(x) * k\n"
    head = HEAD.replace("def forward(self, x):\n        return self.fc(x)\n", fwd)
    body = (
        f"m = {owner}\n"
        "seen = []\n"
        "def pre(mod, args, kwargs):\n"
        "    seen.append(sorted(kwargs))\n"
        "    return (args[0] * 0,), kwargs\n"
        "def post(mod, args, kwargs, out):\n"
        "    seen.append(float(args[0].sum()))\n"
        "    return out + 5\n"
        "a = m.register_forward_pre_hook(pre, with_kwargs=True)\n"
        "b = m.register_forward_hook(post, with_kwargs=True)\n"
        "c = m.register_forward_hook(lambda mod, i, o: None)\n"
        "print(len(m._forward_pre_hooks_with_kwargs), len(m._forward_hooks_with_kwargs))\n"
        "y = m(torch.ones(1, 2))\n"
        "print(seen, bool((y == m.fc.bias + 5).all()) if hasattr(m, 'fc') else "
        "bool((y == m.bias + 5).all()))\n"
        "a.remove()\n"
        "print(len(m._forward_pre_hooks_with_kwargs))\n"
        "m.register_forward_pre_hook(lambda mod, a, k: 3, with_kwargs=True)\n"
        "try:\n"
        "    m(torch.ones(1, 2))\n"
        "except RuntimeError as e:\n"
        "    print(str(e))\n"
    )
    got = "".join(parse(head + body, "t.py").run(dtype="float32").output)
    assert got == (
        "1 1\n[[], 0.0] True\n"
        "0\nforward pre-hook must return None or a tuple of (new_args, new_kwargs), but got 3.\n"
    )


def test_always_call_is_refused_in_plain_words() -> None:
    with pytest.raises(NotSupported, match="always_call=True"):
        run("lin.register_forward_hook(lambda m, i, o: None, always_call=True)\n")
