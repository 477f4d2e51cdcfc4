"""gradcli runs a function vmap maps over once per batch element (PyTorch once, on the
batch), and the hooks of jacrev's backward (and of a vectorized `jacobian`'s) once per row
(PyTorch once, vmapped). A change to an object that the run for an earlier element changed
too would be made once per element: `self.calls += 1` in a module's forward, a counter on a
plain instance, an attribute list appended to, a tensor outside changed in place. That was a
silent wrong answer (4 where PyTorch has 1); it is refused in plain words, at the line. What
stays honest runs: the same value assigned again, objects the function makes, a batch of one,
in-place changes of the element's own tensors."""

from __future__ import annotations

import pytest

from gradcli.base.errors import NotSupported
from gradcli.lang.program import parse

HEAD = "import torch\nfrom torch.func import vmap, jacrev, jacfwd, hessian\n"
COUNTER = "class C:\n    def __init__(self):\n        self.n = 0\n        self.log = []\nc = C()\n"


def run(text: str) -> str:
    return "".join(parse(HEAD + text, "t.py").run().output)


def refused(text: str) -> NotSupported:
    with pytest.raises(NotSupported) as info:
        run(text)
    return info.value


@pytest.mark.parametrize(
    "change",
    [
        "c.n += 1",
        "c.n = c.n + v.sum()",
        "c.log.append(1)",
        "c.log += [1]",
        "c.log[:] = [len(c.log)]",
        "setattr(c, 'n', c.n + 1)",
        "c.n = torch.zeros(1)",
    ],
)
@pytest.mark.parametrize("transform", ["vmap", "torch.vmap", "vmap(jacrev", "vmap(hessian"])
def test_a_change_each_element_makes_again_is_refused(change: str, transform: str) -> None:
    call = f"{transform}(f)" if "(" not in transform else f"{transform}(f))"
    e = refused(
        f"{COUNTER}def f(v):\n    {change}\n    return v.sin().sum()\n{call}(torch.ones(3, 2))\n"
    )
    text = str(e)
    assert "inside the function vmap maps over is not supported" in text
    assert "once per batch element" in text
    assert "after the vmap call" in (e.hint or "")


def test_the_refusal_names_the_line_and_the_attribute() -> None:
    program = parse(
        HEAD + "class Net(torch.nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.calls = 0\n"
        "    def forward(self, x):\n        self.calls += 1\n        return x * 2\n"
        "net = Net()\nprint(vmap(net)(torch.ones(2, 3)).shape)\n",
        "t.py",
    )
    with pytest.raises(NotSupported) as info:
        program.run()
    assert "the attribute .calls of a Net" in str(info.value)
    assert info.value.span.where() == "t.py:8:9"  # `self.calls += 1`


@pytest.mark.parametrize(
    "change",
    [
        "acc.append(v.sum())",
        "acc.extend([1])",
        "d['k'] = v",
        "del d['k']",
        "t.add_(1)",
        "t[0] = 5.0",
        "t.zero_()",
    ],
)
def test_closures_and_outer_tensors_are_covered(change: str) -> None:
    program = (
        "def outer():\n"
        "    acc = []\n    d = {'k': 1}\n    t = torch.zeros(2)\n"
        f"    def f(v):\n        {change}\n        return v * 2\n"
        "    return vmap(f)(torch.ones(3, 2))\n"
        "outer()\n"
    )
    e = refused(program)
    assert "when the run for an earlier batch element changed it too" in str(e)


def test_honest_changes_run_as_in_pytorch() -> None:
    out = run(
        COUNTER + "def f(v):\n"
        "    c.flag = True\n"  # the same value every time
        "    c.shape = v.shape\n"
        "    mine = C()\n    mine.n += 1\n    mine.log.append(v)\n"  # the function's own
        "    w = v.clone()\n    w.mul_(3)\n    v.add_(1)\n"  # the element's own tensors
        "    return w.sum() + mine.n + len(mine.log)\n"
        "x = torch.ones(3, 2)\n"
        "print(vmap(f)(x), c.flag, c.shape, x.sum().item())\n"
        "def g(v):\n    c.n += 1\n    c.log.append(0)\n    return v * 2\n"
        "print(vmap(g)(torch.ones(1, 2)), c.n, c.log)\n"  # a batch of one runs once
    )
    assert out == ("tensor([8., 8., 8.]) True torch.Size([2]) 12.0\ntensor([[2., 2.]]) 1 [0]\n")


def test_jacfwd_jacrev_hessian_run_the_function_once() -> None:
    out = run(
        COUNTER + "def f(x):\n    c.n += 1\n    return x.sin()\n"
        "for t in (jacrev, jacfwd, hessian):\n"
        "    c.n = 0\n    t(f)(torch.ones(3))\n    print(c.n)\n"
    )
    assert out == "1\n1\n1\n"


def test_hooks_in_jacrev_run_once_and_their_changes_are_refused() -> None:
    out = run(
        "def f(x):\n    y = x * 2\n    y.register_hook(lambda g: print('hook', g.shape))\n"
        "    return y.exp()\n"
        "print(jacrev(f)(torch.zeros(3)))\n"
        "print(torch.autograd.functional.jacobian(f, torch.zeros(2), vectorize=True))\n"
        "print(torch.autograd.functional.jacobian(f, torch.zeros(2)))\n"
    )
    assert out == (
        "hook torch.Size([3])\ntensor([[2., 0., 0.],\n        [0., 2., 0.],\n"
        "        [0., 0., 2.]])\n"
        "hook torch.Size([2])\ntensor([[2., 0.],\n        [0., 2.]])\n"
        "hook torch.Size([2])\nhook torch.Size([2])\ntensor([[2., 0.],\n        [0., 2.]])\n"
    )
    hook = "def f(x):\n    y = x * 2\n    y.register_hook(lambda g: seen.append(g))\n    return y\n"
    e = refused("seen = []\n" + hook + "jacrev(f)(torch.zeros(3))\n")
    assert "inside a hook during jacrev's backward passes" in str(e)
    assert "once per row of the Jacobian" in str(e)
    e = refused(
        "seen = []\n" + hook + "torch.autograd.functional.jacobian(f, torch.zeros(3), "
        "vectorize=True)\n"
    )
    assert "vectorize=False" in (e.hint or "")
    # one backward a row without vectorize, as PyTorch: the hook runs for each
    assert (
        run(
            "seen = []\n" + hook + "torch.autograd.functional.jacobian(f, torch.zeros(3))\n"
            "print(len(seen))\n"
        )
        == "3\n"
    )


def test_what_each_run_makes_and_drops_is_not_kept() -> None:
    # `seen` holds the objects it keys (so that an id is not reused while it is a key), and
    # lets go of those nothing else holds: a run making a new list at every step keeps only
    # what the program itself holds
    from gradcli.core.tensor import Repeated, repeated_change

    runs = Repeated("the function vmap maps over", "batch element", "")
    held = []
    with runs:
        for i in range(20_000):
            xs = [i]
            repeated_change(xs, "a list")
            if i % 100 == 0:
                held.append(xs)
        assert len(runs.seen) < 3000
        assert all(id(xs) in runs.seen for xs in held)
        runs.run(1)
        with pytest.raises(NotSupported):
            repeated_change(held[0], "a list")
    assert runs.seen == {}


@pytest.mark.parametrize(
    ("made", "use", "words"),
    [
        ("import itertools\nit = itertools.count()", "next(it)", "an iterator"),
        ("it = iter([1.0, 2.0, 3.0])", "next(it)", "an iterator"),
        ("import random", "random.random()", "the random module's state"),
        ("import random", "random.randint(0, 9)", "the random module's state"),
        ("import numpy as np", "float(np.random.rand())", "NumPy's random state"),
    ],
)
def test_draws_and_iterators_advanced_again_are_refused(made: str, use: str, words: str) -> None:
    # PyTorch's one run draws (advances) once for the whole batch: gradcli gave each element
    # its own number (tensor([0., 1., 2.]) for next(itertools.count()))
    e = refused(f"{made}\ndef f(v):\n    return v * {use}\nvmap(f)(torch.ones(3))\n")
    assert words in str(e)
    # a batch of one draws once, as PyTorch
    run(f"{made}\ndef f(v):\n    return v * {use}\nprint(vmap(f)(torch.ones(1)).shape)\n")


@pytest.mark.parametrize(
    ("declare", "change"),
    [("global n", "n += 1"), ("global n", "n = n + 1"), ("", "k += 1")],
)
def test_rebinding_a_global_or_nonlocal_name_each_element_is_refused(
    declare: str, change: str
) -> None:
    # `global n; n += 1` in a vmapped function counted the batch elements (3 where PyTorch
    # has 1): a silent wrong answer.
    body = f"        {declare}\n" if declare else ""
    e = refused(
        "n = 0\ndef make():\n    k = 0\n    def f(v):\n        nonlocal k\n"
        + body
        + f"        {change}\n        return v * 2\n    return f\n"
        "vmap(make())(torch.ones(3, 2))\n"
    )
    assert "name '" in str(e) and "earlier batch element changed it too" in str(e)


def test_names_set_to_the_same_value_or_in_the_element_s_own_frames_run() -> None:
    out = run(
        "done = False\n"
        "def f(v):\n    global done\n    done = True\n"
        "    total = 0\n"
        "    def add(u):\n        nonlocal total\n        total = total + u\n"
        "    add(v.sum())\n    add(v.sum())\n    return total\n"
        "print(vmap(f)(torch.ones(3, 2)).tolist(), done)\n"
    )
    assert out == "[4.0, 4.0, 4.0] True\n"
