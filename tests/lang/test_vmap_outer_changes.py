"""Inside a function vmap maps over, changing a list, dict or set the program made before
(a module-level name) is refused: PyTorch runs the function once, gradcli once per batch
element, so the container changed once per element (a silent difference: `acc.append(...)`
gave 3 items where PyTorch has 1). Containers the function makes are its own; and a
`functools.partial` holding a mapped tensor can be given to a transform inside vmap (its
name no longer prints the tensor)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import NotSupported
from gradcli.lang.program import parse


def run(text: str) -> str:
    return "".join(parse("import torch\nimport functools\n" + text, "t.py").run().output)


@pytest.mark.parametrize(
    ("made", "change"),
    [
        ("acc = []", "acc.append(v)"),
        ("acc = []", "acc.extend([v, v])"),
        ("acc = [0]", "acc[0] = v"),
        ("acc = [0]", "acc.pop()"),
        ("acc = {}", "acc['k'] = v"),
        ("acc = {}", "acc.update(k=v)"),
        ("acc = {}", "acc.setdefault('k', v)"),
        ("acc = set()", "acc.add(1)"),
        # reached other ways than `acc.method(...)`: all change `acc` once per element
        ("acc = []", "list.append(acc, v)"),
        ("acc = []\nadd = acc.append", "add(v)"),
        ("acc = []\nadd = functools.partial(list.append, acc)", "add(v)"),
        ("import heapq\nacc = []", "heapq.heappush(acc, 1)"),
        ("import bisect\nacc = []", "bisect.insort(acc, 1)"),
        ("import collections\nacc = collections.deque()", "acc.append(v)"),
        ("import collections\nacc = collections.deque([1])", "acc.rotate(1)"),
    ],
)
@pytest.mark.parametrize("vmap", ["torch.vmap", "torch.func.vmap"])
def test_changing_an_outer_container_inside_vmap_is_refused(
    made: str, change: str, vmap: str
) -> None:
    with pytest.raises(NotSupported, match="made outside the function vmap maps over"):
        run(f"{made}\ndef f(v):\n    {change}\n    return v * 2\n{vmap}(f)(torch.ones(3, 2))\n")


def test_nested_vmaps_and_a_helper_function_are_covered() -> None:
    with pytest.raises(NotSupported, match="made outside the function vmap maps over"):
        run(
            "log = []\n"
            "def note(v):\n    log.append(v.sum())\n"
            "def f(v):\n    note(v)\n    return v\n"
            "torch.vmap(torch.vmap(f))(torch.ones(2, 3, 4))\n"
        )


def test_the_function_s_own_containers_and_outer_reads_are_fine() -> None:
    out = run(
        "scale = [2.0, 3.0]\n"
        "names = {'a': 1.0}\n"
        "def f(v):\n"
        "    parts = []\n"
        "    for s in scale:\n"
        "        parts.append(v * s)\n"
        "    d = {}\n"
        "    d['x'] = torch.stack(parts).sum() + names['a']\n"
        "    return d['x']\n"
        "print(torch.vmap(f)(torch.arange(6.).view(3, 2)))\n"
        "acc = []\n"
        "acc.append(torch.vmap(f)(torch.ones(2, 2)))\n"
        "print(len(acc))\n"
    )
    assert out == "tensor([ 6., 26., 46.])\n1\n"


def test_a_partial_of_a_mapped_tensor_in_a_transform() -> None:
    out = run(
        "torch.manual_seed(0)\n"
        "x = torch.randn(2, 3)\n"
        "w = torch.randn(3, 3)\n"
        "def inner(x, w):\n"
        "    res, vjp_fn = torch.func.vjp(functools.partial(torch.matmul, x), w)\n"
        "    (g,) = vjp_fn(torch.ones_like(res))\n"
        "    return g\n"
        "torch.set_printoptions(precision=8)\n"
        "print(torch.vmap(inner, (0, None))(x, w))\n"
        "print(x)\n"
    )
    numbers = [
        float(s)
        for s in out.replace("tensor(", " ")
        .replace("[", " ")
        .replace("]", " ")
        .replace(")", " ")
        .replace(",", " ")
        .split()
    ]
    g, x = np.array(numbers[:18]).reshape(2, 3, 3), np.array(numbers[18:]).reshape(2, 3)
    # d/dw sum(x_b @ w) = outer(x_b, ones)
    assert np.allclose(g, x[:, :, None] * np.ones((1, 1, 3)), atol=1e-7)


def test_the_argument_runs_before_the_change_is_refused() -> None:
    # Python evaluates `log.append(...)`'s argument first: `.item()` in a vmapped function
    # raises PyTorch's error (which the program catches) before anything is appended.
    out = run(
        "log = []\n"
        "def f(v):\n    log.append(v.sum().item())\n    return v\n"
        "try:\n    torch.vmap(f)(torch.ones(3, 2))\n"
        "except RuntimeError as e:\n    print(str(e).split(':')[0], len(log))\n"
    )
    assert out == "vmap 0\n"
