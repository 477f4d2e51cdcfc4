"""`Program.run(overrides={"x": a})` lends the caller's array to the leaf `x` (a read-only view,
no copy: `core.tensor.lend`) and copies it on the first write. Every path that writes into a
tensor's storage, or shares it, must copy first: the program then prints what it prints with a
copy of the data (the override given as a function, which always copies), and the caller's
array is never changed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import gradcli
from gradcli.core import tensor as T

HEAD = (
    "import torch\n"
    "import numpy as np\n"
    "x = torch.zeros(4, dtype=torch.float64)\n"
    "w = torch.zeros(4, dtype=torch.float64, requires_grad=True)\n"
)

# Each program changes `x` or `w` (or a tensor sharing their storage) in place, one way each.
PROGRAMS = {
    "add_": "with torch.no_grad():\n    x.add_(1)\nprint(x)\n",
    "iadd": "x += 2\nprint(x)\n",
    "setitem": "x[1] = 5\nprint(x)\n",
    "setitem_slice": "x[1:3] = torch.tensor([7.0, 8.0], dtype=torch.float64)\nprint(x)\n",
    "data_mul_": "w.data.mul_(3)\nprint(w)\n",
    "data_isub": "w.data -= 0.5\nprint(w)\n",
    "zero_": "x.zero_()\nprint(x)\n",
    "fill_": "x.fill_(2.5)\nprint(x)\n",
    "copy_": "x.copy_(torch.arange(4.0))\nprint(x)\n",
    "clamp_": "x.clamp_(min=2.5)\nprint(x)\n",
    "numpy_write": "a = x.numpy()\na[0] = 7.0\na *= 2\nprint(x)\n",
    "detach_numpy_write": "a = w.detach().numpy()\na[2] = -1.0\nprint(w)\n",
    "from_numpy": "t = torch.from_numpy(x.numpy())\nt.add_(1)\nprint(x)\n",
    "detach_add_": "d = w.detach()\nd.add_(10)\nprint(w, d)\n",
    "view_add_": "v = x[1:3]\nv.add_(1)\nprint(x, v)\n",
    "view_reshape_mul_": "v = x.view(2, 2)\nv.mul_(3)\nprint(x, v)\n",
    "view_then_read": "v = x[0:2]\nx.add_(1)\nprint(v)\n",
    "transpose_": "m = x.view(2, 2)\nm.t_()\nm.add_(1)\nprint(x, m)\n",
    "unsqueeze_": "x.unsqueeze_(0)\nx.add_(1)\nprint(x)\n",
    "data_set": "u = torch.zeros(4, dtype=torch.float64)\nu.data = x\nx.add_(1)\nprint(u)\n",
    "out_arg": "torch.add(torch.ones(4, dtype=torch.float64), 1, out=x)\nprint(x)\n",
    "normal_": "torch.manual_seed(0)\nx.normal_()\nprint(x)\n",
    "uniform_init": "torch.manual_seed(0)\ntorch.nn.init.uniform_(x)\nprint(x)\n",
    "sgd_step": (
        "opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)\n"
        "for _ in range(3):\n"
        "    opt.zero_grad()\n"
        "    (w * w * 3).sum().backward()\n"
        "    opt.step()\n"
        "print(w)\n"
    ),
    "adam_step": (
        "opt = torch.optim.Adam([w], lr=0.1)\n(w ** 2).sum().backward()\nopt.step()\nprint(w)\n"
    ),
    "grad_accumulated_into": "w.grad = x\n(w * 2).sum().backward()\nprint(x)\n",
    "grad_read_then_changed": ("(w * x).sum().backward()\ng = w.grad\ng.add_(1)\nprint(g, x)\n"),
    "no_grad_update": "with torch.no_grad():\n    w -= 0.1 * w\nprint(w)\n",
    "parameter": "p = torch.nn.Parameter(x)\nwith torch.no_grad():\n    p.add_(1)\nprint(x, p)\n",
    "view_dtype": "v = x.view(torch.int64)\nv[0] = 1\nprint(x)\n",
    "rows_iterated": "for r in x.view(2, 2):\n    r.add_(1)\nprint(x)\n",
    "unbind": "u = x.unbind(0)\nu[0].add_(1)\nprint(x)\n",
    "init_zeros_": "torch.nn.init.zeros_(x)\nprint(x)\n",
    "data_ptr": "p = x.data_ptr()\nd = x.detach()\nd.add_(1)\nprint(p == d.data_ptr(), x)\n",
    "state_dict": (
        "lin = torch.nn.Linear(4, 1, dtype=torch.float64)\n"
        "with torch.no_grad():\n"
        "    lin.weight[0] = x\n"
        "    x.add_(1)\n"
        "print(lin.weight, x)\n"
    ),
}

DATA = {"x": np.array([1.0, 2.0, 3.0, 4.0]), "w": np.array([0.5, -1.5, 2.0, 0.25])}


def run_both(body: str) -> tuple[list[str], list[str], dict[str, np.ndarray]]:
    """The program's output with the data lent and with it copied, and the lent arrays."""
    prog = gradcli.parse(HEAD + body)
    lent = {k: v.copy() for k, v in DATA.items()}
    a = prog.run(overrides=lent).output
    b = prog.run(overrides={k: (lambda t, v=v: v.copy()) for k, v in DATA.items()}).output
    return a, b, lent


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_every_write_copies_the_lent_data_first(name: str) -> None:
    lent_out, copied_out, lent = run_both(PROGRAMS[name])
    assert lent_out == copied_out
    assert lent_out  # the program printed something
    for k, v in DATA.items():
        np.testing.assert_array_equal(lent[k], v)  # the caller's arrays are unchanged


def test_a_program_that_only_reads_keeps_the_lent_view() -> None:
    a = np.linspace(-2.0, 2.0, 5000)
    text = (
        "import torch\n"
        "x = torch.zeros(5000, dtype=torch.float64, requires_grad=True)\n"
        "y = (torch.sigmoid(x) * x ** 2).sum()\n"
    )
    run = gradcli.parse(text).run(overrides={"x": a})
    x = run.tensors["x"]
    assert np.shares_memory(x.data, a) and not x.data.flags.writeable and T.lent(x)
    g = gradcli.backward(run, of="y", wrt=["x"]).grads["x"]
    s = 1 / (1 + np.exp(-a))
    np.testing.assert_allclose(g, s * (1 - s) * a * a + 2 * a * s, rtol=1e-12)
    assert T.lent(x)  # the backward pass read it only
    T.own(x)
    assert not T.lent(x) and x.data.flags.writeable and not np.shares_memory(x.data, a)


def test_data_that_does_not_fit_is_copied_as_before() -> None:
    text = "import torch\nx = torch.zeros(2, 3, dtype=torch.float64)\nprint(x.stride())\n"
    prog = gradcli.parse(text)
    fortran = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    run = prog.run(overrides={"x": fortran})
    assert run.output == ["(3, 1)\n"]  # a contiguous copy, as PyTorch's zeros
    assert not np.shares_memory(run.tensors["x"].data, fortran)
    as_float32 = prog.run(overrides={"x": np.arange(6, dtype=np.float32).reshape(2, 3)})
    assert as_float32.tensors["x"].dtype == np.float64


def test_an_expanded_view_of_lent_data_keeps_pytorchs_refusal() -> None:
    text = "import torch\nx = torch.zeros(3, dtype=torch.float64)\ne = x.expand(2, 3)\ne.add_(1)\n"
    with pytest.raises(gradcli.GradcliError, match="more than one element of the written-to"):
        gradcli.parse(text).run(overrides={"x": np.ones(3)})


@pytest.mark.parametrize(
    "make, given",
    [
        ("torch.zeros(0, dtype=torch.float64)", np.zeros(0)),
        ("torch.tensor(2.0, dtype=torch.float64)", np.array(3.0)),
        ("torch.zeros(2, 0, 3, dtype=torch.float64)", np.zeros((2, 0, 3))),
    ],
)
def test_empty_and_zero_dim_leaves_are_lent_and_written_as_copies(make: str, given: Any) -> None:
    text = f"import torch\nx = {make}\nv = x.view(-1)\nx.add_(1)\nprint(x, v, x.shape)\n"
    before = given.copy()
    lent_out = gradcli.parse(text).run(overrides={"x": given}).output
    copied = gradcli.parse(text).run(overrides={"x": lambda t, g=given: g.copy()}).output
    assert lent_out == copied
    np.testing.assert_array_equal(given, before)
