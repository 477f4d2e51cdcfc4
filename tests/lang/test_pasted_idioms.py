"""Idioms met in public snippets tried as pasted (explore8): object reprs with Python's
address, `functorch` imports, `tuple + x.shape`, `scheduler.get_lr()`, `.numpy()` under
`torch.no_grad()`. Expected values are PyTorch 2.13's (checked by hand with /work/torchenv)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gradcli.base.errors import GradcliError, NotSupported
from gradcli.lang.program import parse


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float32").output)


ADDRESS = r"0x[0-9a-f]+"


def test_reprs_carry_an_address_as_python_and_pytorch_print_them() -> None:
    got = out(
        "import torch\nx = torch.ones(2, requires_grad=True)\n"
        "h = x.register_hook(lambda g: g)\nprint(h)\nprint(type(h))\n"
        "print(x.size)\nl = [1]\nprint(l.append)\nprint(torch.Generator())\n"
        "m = torch.nn.Linear(1, 1)\nprint(m.register_forward_hook(lambda mod, i, o: None))\n"
    ).splitlines()
    assert re.fullmatch(rf"<torch\.utils\.hooks\.RemovableHandle object at {ADDRESS}>", got[0])
    assert got[1] == "<class 'torch.utils.hooks.RemovableHandle'>"
    assert re.fullmatch(rf"<built-in method size of Tensor object at {ADDRESS}>", got[2])
    assert re.fullmatch(rf"<built-in method append of list object at {ADDRESS}>", got[3])
    assert re.fullmatch(rf"<torch\._C\.Generator object at {ADDRESS}>", got[4])
    assert re.fullmatch(rf"<torch\.utils\.hooks\.RemovableHandle object at {ADDRESS}>", got[5])
    # two handles are two objects: two addresses
    two = out(
        "import torch\nx = torch.ones(1, requires_grad=True)\n"
        "a = x.register_hook(lambda g: g)\nb = x.register_hook(lambda g: g)\n"
        "print(str(a) == str(b), str(a) == str(a))\n"
    )
    assert two == "False True\n"


def test_functorch_is_torch_func_under_its_old_name() -> None:
    got = out(
        "import torch\nimport functorch\nfrom functorch import vmap, grad, hessian\n"
        "x = torch.tensor(0.5)\nprint(grad(torch.sin)(x), functorch.grad(torch.sin)(x))\n"
        "print(vmap(torch.dot)(torch.ones(2, 3), torch.ones(2, 3)))\n"
        "print(hessian(lambda t: (t ** 3).sum())(torch.tensor([1.0, 2.0])))\n"
    )
    assert got == (
        "tensor(0.8776) tensor(0.8776)\ntensor([3., 3.])\n"
        "tensor([[ 6.,  0.],\n        [ 0., 12.]])\n"
    )
    with pytest.raises(GradcliError, match="cannot import name 'make_fx'"):
        out("from functorch import make_fx\n")


def test_tuples_and_sizes_concatenate_to_a_size() -> None:
    got = out(
        "import torch\nx = torch.ones(3, 4)\ns = x.shape\n"
        "print(s + s, s + (1,), (1, 1) + s)\nprint(s * 2, 2 * s, s * 0, s + ())\n"
        "print((True,) + s, s + (torch.tensor(2),))\n"
        "print(x.reshape((1, 1) + x.shape).shape, type(s + s))\n"
        "print((1, 2) + (3,), [1] + [2])\n"
    )
    assert got == (
        "torch.Size([3, 4, 3, 4]) torch.Size([3, 4, 1]) torch.Size([1, 1, 3, 4])\n"
        "torch.Size([3, 4, 3, 4]) torch.Size([3, 4, 3, 4]) torch.Size([]) torch.Size([3, 4])\n"
        "torch.Size([1, 3, 4]) torch.Size([3, 4, 2])\n"
        "torch.Size([1, 1, 3, 4]) <class 'torch.Size'>\n"
        "(1, 2, 3) [1, 2]\n"
    )
    with pytest.raises(GradcliError, match=r"item 2 is 'str'"):
        out("import torch\ns = torch.ones(3, 4).shape + ('a',)\n")
    with pytest.raises(
        GradcliError, match='can only concatenate list \\(not "torch.Size"\\) to list'
    ):
        out("import torch\ns = [1] + torch.ones(3, 4).shape\n")


def test_scheduler_get_lr_is_the_next_steps_form_with_a_warning() -> None:
    prog = parse(
        "import torch\nm = torch.nn.Linear(1, 1)\nopt = torch.optim.SGD(m.parameters(), lr=1)\n"
        "s = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)\n"
        "for i in range(4):\n    opt.step()\n    s.step()\n"
        "    print(s.get_lr()[0], s.get_last_lr()[0])\n",
        "t.py",
    )
    result = prog.run(dtype="float32")
    # PyTorch's numbers: get_lr() applies gamma again at a step boundary (epochs 2 and 4)
    assert "".join(result.output) == (
        "1 1\n0.010000000000000002 0.1\n0.1 0.1\n0.0010000000000000002 0.010000000000000002\n"
    )
    warned = [w for w in result.warnings if "get_last_lr()" in str(w)]
    assert len(warned) == 1  # once per run, as Python shows a warning once per place


def test_numpy_of_a_tensor_that_requires_grad_works_under_no_grad() -> None:
    got = out(
        "import torch\nimport numpy as np\nw = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "with torch.no_grad():\n    a = w.numpy()\n    b = np.array(w)\n"
        "print(a, b, type(a))\na[0] = 5\nprint(w)\n"
    )
    assert got == (
        "[1. 2.] [1. 2.] <class 'numpy.ndarray'>\ntensor([5., 2.], requires_grad=True)\n"
    )
    for where in ("w.numpy()", "np.array(w)"):
        with pytest.raises(GradcliError, match=r"Can't call numpy\(\) on Tensor that requires"):
            out(
                f"import torch\nimport numpy as np\nw = torch.ones(2, requires_grad=True)\n"
                f"a = {where}\n"
            )


def test_a_gradient_through_relu_depends_on_its_result_as_in_pytorch() -> None:
    """relu's gradient is threshold_backward(g, result): under create_graph=True it requires
    grad whenever the relu's input does (next_functions: g's, ReluBackward0), even where g is
    a constant; a gradient reaching the input through it is a zero tensor. With it,
    vmap(grad(f)) of a per-sample loss keeps the program's weights' graph, as PyTorch."""
    got = out(
        "import torch\nfrom torch.func import vmap, grad\n"
        "x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)\n"
        "g, = torch.autograd.grad((torch.relu(x) * 2).sum(), x, create_graph=True)\n"
        "print(g, [f[0].name() if f[0] is not None else None for f in g.grad_fn.next_functions])\n"
        "g.sum().backward()\nprint(x.grad)\n"
        "w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)\n"
        "xs = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, -2.0]])\n"
        "print(vmap(grad(lambda w, x: (x.dot(w).relu() * 2).mean()), in_dims=(None, 0))(w, xs))\n"
        "n = torch.tensor([float('nan'), -1.0, 2.0], requires_grad=True)\n"
        "torch.relu(n).sum().backward()\nprint(n.grad)\n"
    )
    assert got == (
        "tensor([2., 0., 2.], grad_fn=<ThresholdBackwardBackward0>) [None, 'ReluBackward0']\n"
        "tensor([0., 0., 0.])\n"
        "tensor([[2., 4., 6.],\n        [-0., 0., -0.]], grad_fn=<MulBackward0>)\n"
        "tensor([1., 0., 1.])\n"  # a nan input passes its gradient (nan <= 0 is false)
    )


def test_reduction_names_of_vmap_and_amax() -> None:
    got = out(
        "import torch\nfrom torch.func import vmap\n"
        "w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)\nxs = torch.ones(2, 3)\n"
        "for f in (lambda x: (x * w).sum(), lambda x: (x * w).mean(), lambda x: (x * w).prod(),"
        " lambda x: (x * w).max(), lambda x: (x * w).min(), lambda x: (x * w).sum(0),"
        " lambda x: (x * w).norm()):\n    print(vmap(f)(xs).grad_fn.name())\n"
        "print(w.amax().grad_fn.name(), (w * 1).amin().grad_fn.name(), w.amax(0).grad_fn.name())\n"
    )
    assert got.split() == [
        "SumBackward1",
        "MeanBackward1",
        "ProdBackward1",
        "MaxBackward0",
        "MinBackward0",
        "SumBackward1",
        "LinalgVectorNormBackward0",
        "AmaxBackward0",
        "AminBackward0",
        "AmaxBackward0",
    ]


def test_numpy_as_the_dudl_course_uses_it() -> None:
    """NumPy next to PyTorch (the 'Deep Understanding of Deep Learning' course scripts): lists
    of arrays, np.where(condition) indexing a tensor, dtype=bool, ~mask, -array, np.shape,
    np.corrcoef of an array and a tensor, np.random.choice(range(n)), a return_types tuple's
    methods. Values checked against NumPy 2 / PyTorch 2.13."""
    got = out(
        "import numpy as np\nimport torch\n"
        "a = [np.array([1.0, 2.0]), np.array([3.0, 4.0])]\n"
        "b = [np.array([5, 6]), np.array([7, 8])]\n"
        "print(np.hstack((a, b)), np.array(b).dtype, torch.tensor(a))\n"
        "labels = torch.tensor([[0.0], [1.0], [0.0], [1.0]])\n"
        "data = torch.arange(8.0).reshape(4, 2)\n"
        "print(np.where(labels == 0), data[np.where(labels == 0)[0], 0])\n"
        "m = np.zeros(4, dtype=bool)\nm[[1, 3]] = True\n"
        "print(m, ~m, -np.array([1.5, -2]), np.ones(2, dtype=int))\n"
        "print(np.shape(data), np.shape([[1, 2, 3]]), np.shape(2.0))\n"
        "print(np.round(np.corrcoef(np.array([1.0, 2, 4, 3]), torch.tensor([2.0, 4, 9, 5])), 6))\n"
        "np.random.seed(1)\nprint(np.random.choice(range(10), 4, replace=False))\n"
        "mn = torch.min(torch.tensor([[0, 1, 10], [20, 8, 5]]), axis=0)\n"
        "print(len(mn), mn.index(mn[0]))\n"
    )
    assert got == (
        "[[1. 2. 5. 6.]\n [3. 4. 7. 8.]] int64 "
        "tensor([[1., 2.],\n        [3., 4.]], dtype=torch.float64)\n"
        "(array([0, 2]), array([0, 0])) tensor([0., 4.])\n"
        "[False  True False  True] [ True False  True False] [-1.5  2. ] [1 1]\n"
        "torch.Size([4, 2]) (1, 3) ()\n"
        "[[1.       0.964764]\n [0.964764 1.      ]]\n"
        "[2 9 6 4]\n"
        "2 0\n"
    )
    # NumPy's refusals, in its words, catchable as the TypeErrors they are
    assert out(
        "import numpy as np\nfor f in (lambda: -np.array([True]), lambda: ~np.array([1.5])):\n"
        "    try:\n        f()\n    except TypeError as e:\n        print(str(e)[:30])\n"
    ) == ("The numpy boolean negative, th\nufunc 'invert' not supported f\n")
    with pytest.raises(GradcliError, match="either both or neither of x and y"):
        out("import numpy as np\nc = np.where(np.array([1, 0]), 1)\n")


def test_numpy_full_takes_numpys_dtype_of_the_value() -> None:
    got = out(
        "import numpy as np\na = np.full((2, 3), 2.5)\nb = np.full(3, 7)\nc = np.full((2,), True)\n"
        "d = np.full((1, 2), 1, dtype=np.float32)\nprint(a.dtype, b.dtype, c.dtype, d.dtype)\n"
        "print(b, d)\n"
    ).splitlines()
    assert got == ["float64 int64 bool float32", "[7 7 7] [[1. 1.]]"]
    with pytest.raises(GradcliError, match="fill_value must be a number"):
        out("import numpy as np\na = np.full(2, 'x')\n")
    with pytest.raises(GradcliError, match="over the limit"):
        out("import numpy as np\na = np.full((10**5, 10**5), 1.0)\n")


_FN = (
    "import torch\nclass E(torch.autograd.Function):\n{extra}"
    "    @staticmethod\n    def forward(x):\n        return x.exp()\n"
    "    @staticmethod\n    def setup_context(ctx, inputs, output):\n"
    "        ctx.save_for_backward(output)\n"
    "    @staticmethod\n    def backward(ctx, g):\n        return g * ctx.saved_tensors[0]\n"
    "x = torch.tensor([0.5, 1.0])\n"
)


def test_a_setup_context_function_runs_under_reverse_transforms_and_vmap() -> None:
    assert out(
        _FN.format(extra="") + "print(torch.func.grad(lambda t: E.apply(t).sum())(x))\n"
    ) == ("tensor([1.6487, 2.7183])\n")
    vm = "print(torch.func.vmap(E.apply)(x))\n"
    with pytest.raises(GradcliError, match="You tried to vmap over E, but it does not have"):
        out(_FN.format(extra="") + vm)
    assert out(_FN.format(extra="    generate_vmap_rule = True\n") + vm) == (
        "tensor([1.6487, 2.7183])\n"
    )
    # forward mode: PyTorch's refusal without a jvp staticmethod; with one, the output's
    # tangent is what it returns (here the tangent itself, not exp's derivative: PyTorch 2.13
    # printed these numbers)
    fwd = "print(torch.func.jvp(E.apply, (x,), (x,)))\n"
    with pytest.raises(GradcliError, match="You must implement the jvp function"):
        out(_FN.format(extra="") + fwd)
    jvp_rule = "    @staticmethod\n    def jvp(ctx, t):\n        return t\n"
    assert out(_FN.format(extra=jvp_rule) + fwd) == (
        "(tensor([1.6487, 2.7183]), tensor([0.5000, 1.0000]))\n"
    )
    # a tangent differentiated again (jacrev of jacfwd): gradcli would take it from the
    # backward, PyTorch from the jvp: refused rather than computed from the other rule
    nested = "print(torch.func.jacrev(torch.func.jacfwd(E.apply))(x))\n"
    with pytest.raises(NotSupported, match="jvp staticmethod in a forward-mode transform"):
        out(_FN.format(extra="    generate_vmap_rule = True\n" + jvp_rule) + nested)
    # the form with ctx in forward stays PyTorch's refusal
    old = (
        "import torch\nclass E(torch.autograd.Function):\n"
        "    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n"
        "    @staticmethod\n    def backward(ctx, g):\n        return g * 2\n"
        "print(torch.func.grad(lambda t: E.apply(t).sum())(torch.ones(2)))\n"
    )
    with pytest.raises(GradcliError, match="it must override the setup_context staticmethod"):
        out(old)


def test_a_warning_is_shown_once_for_each_place_as_pythons_default_filter() -> None:
    result = parse(
        "import torch\nimport warnings\nfor i in range(3):\n    warnings.warn('slow')\n"
        "warnings.warn('slow')\n",
        "t.py",
    ).run(dtype="float32")
    shown = [str(w) for w in result.warnings if "slow" in str(w)]
    assert len(shown) == 2, shown  # the loop's place once, the last line once
    assert shown[0].startswith("t.py:4:") and shown[1].startswith("t.py:5:"), shown


@pytest.mark.parametrize(
    "line",
    [
        "if a:\n    pass",
        "while a:\n    pass",
        "b = a and 1",
        "b = not a",
        "b = bool(a)",
        "b = any([a])",
        "b = [x for x in [1] if a]",
        "b = 1 if a else 2",
        "assert a",
        "b = 1 < a < 3",
        "b = list(filter(None, [a]))",
    ],
)
def test_the_truth_of_an_array_of_several_is_numpys_error(line: str) -> None:
    with pytest.raises(GradcliError, match="The truth value of an array with more than one"):
        out("import numpy as np\na = np.ones(3)\n" + line + "\n")
    # one element: its value, as NumPy
    assert out("import numpy as np\na = np.ones(1)\nprint(bool(a), not a)\n") == "True False\n"


def test_torch_is_its_own_attribute_as_in_pytorch(tmp_path: Path) -> None:
    # reached from `import torch` in a fresh process, before any family of names is imported
    # (the table is made once per process: a run of its own)
    prog = tmp_path / "p.py"
    prog.write_text("import torch\nt = torch.torch\nprint(t is torch, t.torch.ones(1))\n")
    run = subprocess.run(
        [sys.executable, "-m", "gradcli", "run", str(prog)], capture_output=True, text=True
    )
    assert (run.returncode, run.stdout) == (0, "True tensor([1.])\n"), run.stderr
    # `from torch import torch, nn` (seen in a pasted loss module, explore37): torch.torch is
    # the package, at any depth, and what it reaches is torch's own table
    got = out(
        "from torch import torch, nn\nimport torch as T\n"
        "print(torch is T, T.torch is T, T.torch.torch.nn is nn)\n"
        "x = torch.torch.ones(2, requires_grad=True)\n(x * 3).sum().backward()\nprint(x.grad)\n"
    )
    assert got == "True True True\ntensor([3., 3.])\n"
    with pytest.raises(GradcliError, match="__dict__"):
        out("import torch\nd = torch.torch.__dict__\n")


def test_typing_extensions_is_typing_for_hints_and_assert_type() -> None:
    # a typing test file pasted (explore37): its names are typing's, assert_type gives back
    # its value unchecked (Python's run-time behaviour), and nothing else of it is reached
    got = out(
        "import torch\nfrom torch import Tensor\n"
        "from typing_extensions import assert_type, Optional\n"
        "from typing import assert_type as a2\n"
        "def f(x: Optional[Tensor] = None) -> Tensor:\n    return assert_type(x * 2, Tensor)\n"
        "print(f(torch.ones(2)), a2(3, str), Optional[int])\n"
    )
    assert got == "tensor([2., 2.]) 3 typing.Optional[int]\n"
    with pytest.raises(GradcliError, match="cannot import name 'get_type_hints'"):
        out("from typing_extensions import get_type_hints\n")


def test_a_hook_handle_passed_as_a_tensor_is_named_as_pytorch_names_it() -> None:
    # a forward hook that returns `output.register_hook(...)` replaces the output by the
    # handle (explore54): PyTorch's argument error names its class RemovableHandle
    got = out(
        "import torch\nh = torch.ones(2, requires_grad=True).register_hook(lambda g: g)\n"
        "for f in (lambda: torch.sin(h), lambda: torch.exp(h)):\n"
        "    try:\n        f()\n    except TypeError as e:\n        print(e)\n"
    )
    assert got == (
        "sin(): argument 'input' (position 1) must be Tensor, not RemovableHandle\n"
        "exp(): argument 'input' (position 1) must be Tensor, not RemovableHandle\n"
    )


def test_a_module_called_on_a_wrong_input_places_it_as_its_forward_call_does() -> None:
    # nn.Sigmoid()(x) runs torch.sigmoid(x): PyTorch's error is that call's, position 1
    got = out(
        "import torch\nfor m in (torch.nn.Sigmoid(), torch.nn.Tanh(), torch.nn.ReLU()):\n"
        "    try:\n        m('a')\n    except TypeError as e:\n        print(e)\n"
        "try:\n    torch.ones(2).add('a')\nexcept TypeError as e:\n    print(e)\n"
    )
    assert got == (
        "sigmoid(): argument 'input' (position 1) must be Tensor, not str\n"
        "tanh(): argument 'input' (position 1) must be Tensor, not str\n"
        "relu(): argument 'input' (position 1) must be Tensor, not str\n"
        "add(): argument 'other' (position 1) must be Tensor, not str\n"
    )
