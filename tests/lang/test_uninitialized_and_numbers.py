"""A lazy module's parameter before its first call is PyTorch's errors, never a computation on
an empty tensor; a Python number given where PyTorch takes only a tensor is PyTorch's
TypeError / AttributeError, never a value (PyTorch 2.13's words, checked in its
environment)."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"


def out(text: str) -> list[str]:
    return "".join(parse(HEAD + text, "t.py").run(dtype="float32").output).splitlines()


USE = "Attempted to use an uninitialized parameter in "


@pytest.mark.parametrize(
    ("expr", "cls", "shown"),
    [
        ("w.shape", "RuntimeError", None),
        ("w.sum()", "ValueError", "<method 'sum' of 'torch._C.TensorBase' objects>"),
        ("w.numel()", "ValueError", "<method 'numel' of 'torch._C.TensorBase' objects>"),
        ("w + 1", "ValueError", "<method 'add' of 'torch._C.TensorBase' objects>"),
        ("2 * w", "ValueError", "<method 'mul' of 'torch._C.TensorBase' objects>"),
        ("-w", "ValueError", "<method 'neg' of 'torch._C.TensorBase' objects>"),
        ("w == 1", "ValueError", "<method '__eq__' of 'torch._C.TensorBase' objects>"),
        ("torch.sum(w)", "ValueError", "<built-in method sum of type object at 0x"),
        ("F.linear(torch.ones(2), w)", "ValueError", "<built-in function linear>"),
        ("w.backward()", "ValueError", "<function Tensor.backward at 0x"),
    ],
)
def test_uses_before_the_first_call_are_refused(expr: str, cls: str, shown: str | None) -> None:
    got = out(
        f"m = nn.LazyLinear(3)\nw = m.weight\ntry:\n    r = {expr}\n"
        f"except {cls} as e:\n    print(str(e))\n"
    )
    assert len(got) == 1, got
    if shown is None:
        assert got[0].startswith("Can't access the shape of an uninitialized parameter")
    else:
        assert got[0].startswith(USE + shown), got


def test_what_it_allows_and_after_the_first_call() -> None:
    got = out(
        "m = nn.LazyLinear(3)\nw = m.weight\n"
        "print(w, type(w), w.dtype, w.requires_grad, w.grad, w.size(), w.is_floating_point())\n"
        "y = m(torch.ones(2, 5))\nprint(w is m.weight, w.shape, type(w), (w + 1).shape)\n"
    )
    assert got == [
        "<UninitializedParameter> <class 'torch.nn.parameter.UninitializedParameter'> "
        "torch.float32 True None torch.Size([0]) True",
        "True torch.Size([3, 5]) <class 'torch.nn.parameter.Parameter'> torch.Size([3, 5])",
    ]


@pytest.mark.parametrize(
    ("call", "words"),
    [
        ("F.softmax(2.0, dim=0)", "AttributeError 'float' object has no attribute 'softmax'"),
        ("F.softmax(2.0)", "AttributeError 'float' object has no attribute 'dim'"),
        ("F.log_softmax(1, 0)", "AttributeError 'int' object has no attribute 'log_softmax'"),
        ("F.softmin(2.0, dim=None)", "AttributeError 'float' object has no attribute 'dim'"),
        (
            "torch.deg2rad(2.0)",
            "TypeError deg2rad(): argument 'input' (position 1) must be Tensor, not float",
        ),
        (
            "torch.signbit(1)",
            "TypeError signbit(): argument 'input' (position 1) must be Tensor, not int",
        ),
        (
            "torch.special.ndtr(0.5)",
            "TypeError special_ndtr(): argument 'input' (position 1) must be Tensor, not float",
        ),
        (
            "torch.is_grad_enabled(1)",
            "TypeError torch.is_grad_enabled() takes no arguments (1 given)",
        ),
        (
            "M.vector_norm(3.0)",
            "TypeError linalg_vector_norm(): argument 'input' (position 1) must be Tensor, "
            "not float",
        ),
    ],
)
def test_numbers_where_pytorch_takes_a_tensor(call: str, words: str) -> None:
    got = out(
        "import torch.linalg as M\n"
        f"try:\n    print({call})\nexcept (TypeError, AttributeError) as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    assert got == [words]


def test_a_number_where_pytorch_takes_one_still_computes() -> None:
    got = out("print(torch.add(torch.ones(1), 2.0), F.softmax(torch.tensor([0.0, 0.0]), dim=0))")
    assert got == ["tensor([3.]) tensor([0.5000, 0.5000])"]


def test_refused_uncaught_has_a_place() -> None:
    with pytest.raises(GradcliError, match="uninitialized parameter") as info:
        out("m = nn.LazyLinear(3)\nz = m.weight.mean()")
    assert info.value.span is not None


@pytest.mark.parametrize(
    ("expr", "cls", "shown"),
    [
        ("b.shape", "RuntimeError", None),
        ("b * 2", "ValueError", "<method 'mul' of 'torch._C.TensorBase' objects>"),
        ("b.mean()", "ValueError", "<method 'mean' of 'torch._C.TensorBase' objects>"),
        ("torch.exp(b)", "ValueError", "<built-in method exp of type object at 0x"),
    ],
)
def test_a_lazy_buffer_before_the_first_call_is_refused(expr: str, cls: str, shown: str) -> None:
    """LazyBatchNorm's running statistics are PyTorch's UninitializedBuffer: its words, naming
    the buffer's class (checked in PyTorch 2.13)."""
    got = out(
        f"m = nn.LazyBatchNorm1d()\nb = m.running_mean\ntry:\n    r = {expr}\n"
        f"except {cls} as e:\n    print(str(e))\n"
    )
    assert len(got) == 1, got
    if shown is None:
        assert got[0].startswith("Can't access the shape of an uninitialized parameter")
    else:
        assert got[0].startswith(USE + shown), got
        assert "`torch.nn.parameter.UninitializedBuffer` objects" in got[0]


def test_the_uninitialized_classes_by_name() -> None:
    got = out(
        "from torch.nn.parameter import UninitializedBuffer\n"
        "m = nn.LazyBatchNorm1d()\n"
        "print(m.running_var, isinstance(m.running_var, UninitializedBuffer),"
        " isinstance(m.running_var, nn.Parameter),"
        " isinstance(m.weight, nn.UninitializedParameter))\n"
        "print(nn.UninitializedBuffer, type(m.running_mean), nn.UninitializedParameter())\n"
        "m(torch.ones(4, 2))\n"
        "print(isinstance(m.running_var, nn.UninitializedBuffer), m.running_var)\n"
    )
    assert got == [
        "<UninitializedBuffer> True False True",
        "<class 'torch.nn.parameter.UninitializedBuffer'> "
        "<class 'torch.nn.parameter.UninitializedBuffer'> <UninitializedParameter>",
        "False tensor([0.9000, 0.9000])",
    ]


def test_global_backward_hooks_run_for_every_module_before_its_own() -> None:
    """register_module_full_backward_(pre_)hook: every module's backward, the global hooks
    first, removed by their handles, and cleared when a run ends (a second run has none)."""
    program = (
        "from torch.nn.modules.module import register_module_full_backward_hook as full\n"
        "from torch.nn.modules.module import register_module_full_backward_pre_hook as pre\n"
        "m = nn.Sequential(nn.Linear(2, 2), nn.Tanh())\n"
        "m[1].register_full_backward_hook(lambda mod, gi, go: print('own', type(mod).__name__))\n"
        "h = full(lambda mod, gi, go: print('full', type(mod).__name__, len(gi), len(go)))\n"
        "p = pre(lambda mod, go: (go[0] * 10,))\n"
        "x = torch.ones(1, 2, requires_grad=True)\n"
        "m(x).sum().backward()\n"
        "g = x.grad.clone()\n"
        "h.remove()\np.remove()\nx.grad = None\n"
        "m(x).sum().backward()\n"
        "print(torch.allclose(g, x.grad * 1000))\n"
    )
    got = out(program)
    # (PyTorch 2.13 prints the same)
    assert got == [
        "full Tanh 1 1",
        "own Tanh",
        "full Linear 1 1",
        "full Sequential 1 1",
        "own Tanh",
        "True",
    ]
    again = out("m = nn.Tanh()\nm(torch.ones(2, requires_grad=True)).sum().backward()\nprint(1)")
    assert again == ["1"]
