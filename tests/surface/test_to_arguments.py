"""`x.to(...)` and `module.to(...)` bind their arguments as PyTorch's parser does (its three
overloads: device/dtype, dtype, tensor; non_blocking, copy and memory_format): any other call
is its TypeError, not a silent conversion (an old tutorial's `a.to(requires_grad=True)` left
the tensor as it was); copy=True gives a new tensor; a module refuses copy= and integer
dtypes. The words are checked against PyTorch's where torch is installed."""

from __future__ import annotations

import pytest

from tests.helpers.programs import error, out

OVERLOADS = (
    " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
    "bool copy = False, *, torch.memory_format memory_format = None)\n"
    " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n"
    " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)"
)

PRELUDE = (
    "import torch\nimport torch.nn as nn\nx = torch.tensor([1.5, -2.0])\n"
    "d = torch.zeros(1, dtype=torch.float64)\n"
)

ACCEPTED = {
    "x.to(torch.float64)": "torch.float64",
    "x.to('cpu')": "torch.float32",
    "x.to(d)": "torch.float64",
    "x.to('cpu', torch.int64)": "torch.int64",
    "x.to('cpu', torch.float64, True, False)": "torch.float64",
    "x.to(torch.float64, True, True)": "torch.float64",
    "x.to(d, True)": "torch.float64",
    "x.to(None)": "torch.float32",
    "x.to(dtype=None)": "torch.float32",
    "x.to(device='cpu', dtype=torch.int64)": "torch.int64",
    "x.to('cpu', dtype=torch.float64, non_blocking=False)": "torch.float64",
    "x.to(copy=True)": "torch.float32",
    "x.to(memory_format=torch.contiguous_format)": "torch.float32",
    "x.to(True)": "torch.bool",
    "x.to(2.5)": "torch.float64",
    "x.to(torch.device('cpu'), torch.float64, True)": "torch.float64",
    "x.to(device=torch.device('cpu'), dtype=torch.int64)": "torch.int64",
}

REFUSED = {
    "x.to(requires_grad=True)": "(requires_grad=bool, )",
    "x.to('cpu', foo=1)": "(str, foo=int)",
    "x.to(dtype=torch.float64, bar=2)": "(bar=int, dtype=torch.dtype, )",
    "x.to(torch.float64, 'cpu')": "(torch.dtype, str)",
    "x.to('cpu', 'cpu')": "(str, str)",
    "x.to([1])": "(list)",
    "x.to(torch.float64, dtype=torch.float32)": "(torch.dtype, dtype=torch.dtype)",
    "x.to(torch.float64, 1)": "(torch.dtype, int)",
    "x.to(d, 'cpu')": "(Tensor, str)",
    "x.to(d, dtype=torch.int64)": "(Tensor, dtype=torch.dtype)",
    "x.to(torch.float64, non_blocking=1)": "(torch.dtype, non_blocking=int)",
    "x.to('cpu', True)": "(str, bool)",
    "x.to(dtype=True)": "(dtype=bool, )",
    "x.to(torch.device('cpu'), 'cpu')": "(torch.device, str)",
    "x.to(torch.float64, torch.device('cpu'))": "(torch.dtype, torch.device)",
}


@pytest.mark.parametrize("call", sorted(ACCEPTED))
def test_accepted_calls_give_pytorchs_dtype(call) -> None:
    assert out(PRELUDE + f"print({call}.dtype)\n") == ACCEPTED[call] + "\n"


@pytest.mark.parametrize("call", sorted(REFUSED))
def test_refused_calls_are_pytorchs_type_error(call) -> None:
    e = error(PRELUDE + f"y = {call}\n")
    assert e.python_class == "TypeError"
    assert e.message.startswith(
        f"to() received an invalid combination of arguments - got {REFUSED[call]}, but "
        "expected one of:\n" + OVERLOADS
    )


def test_five_positional_arguments() -> None:
    e = error(PRELUDE + "y = x.to('cpu', torch.float64, True, True, torch.contiguous_format)\n")
    assert "to() takes from 0 to 4 positional arguments but 5 were given" in str(e)


def test_copy_gives_a_new_tensor_in_the_graph() -> None:
    text = (
        "import torch\n"
        "w = torch.tensor([2.0, 3.0], requires_grad=True)\n"
        "c = w.to(copy=True)\n"
        "print(c is w, w.to(torch.float32) is w, c.grad_fn.name())\n"
        "(c * w).sum().backward()\n"
        "print(w.grad)\n"
        "n = torch.tensor([1, 2])\n"
        "m = n.to(copy=True)\n"
        "m[0] = 5\n"
        "print(n, m)\n"
    )
    assert out(text) == (
        "False True ToCopyBackward0\ntensor([4., 6.])\ntensor([1, 2]) tensor([5, 2])\n"
    )


def test_module_to() -> None:
    text = PRELUDE + (
        "m = nn.Linear(2, 2)\n"
        "print(m.to(d).weight.dtype, m.to(torch.float32).weight.dtype, m.to('cpu') is m)\n"
    )
    assert out(text) == "torch.float64 torch.float32 True\n"
    e = error(PRELUDE + "m = nn.Linear(2, 2)\nm.to(torch.int64)\n")
    assert (
        "nn.Module.to only accepts floating point or complex dtypes, but got desired "
        "dtype=torch.int64" in str(e)
    )
    assert ".to() does not accept copy argument" in str(
        error(PRELUDE + "m = nn.Linear(2, 2)\nm.to(copy=True)\n")
    )
    e = error(PRELUDE + "m = nn.Linear(2, 2)\nm.to(requires_grad=True)\n")
    assert "got (requires_grad=bool, ), but expected one of:" in str(e)


@pytest.mark.parametrize("call", sorted(REFUSED))
def test_torch_twin(call) -> None:
    torch = pytest.importorskip("torch")
    scope = {
        "torch": torch,
        "x": torch.tensor([1.5, -2.0]),
        "d": torch.zeros(1, dtype=torch.float64),
    }
    with pytest.raises(TypeError) as info:
        eval(call, scope)  # noqa: S307 - the same call on torch itself
    assert str(info.value).startswith(
        f"to() received an invalid combination of arguments - got {REFUSED[call]}"
    )


def test_a_device_index_names_an_accelerator() -> None:
    for call in ("x.to(0)", "x.to(1, torch.float64)", "nn.Linear(1, 1).to(0)"):
        e = error(PRELUDE + f"y = {call}\n")
        assert e.python_class == "RuntimeError"
        assert e.message == "Cannot access accelerator device when none is available."
