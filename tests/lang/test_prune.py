"""`torch.nn.utils.prune`: the pruned tensor `mask * orig` recomputed before every call, its
gradient reaching `weight_orig` (against central differences in float64), the masks' rules
checked independently (smallest magnitudes, smallest channel norms, one threshold over several
layers, a second pruning on what the first kept), the generator's draws as PyTorch makes them,
`remove`, a program's own pruning method, and PyTorch's refusals in its words."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = "import torch\nimport torch.nn as nn\nimport torch.nn.utils.prune as prune\n"


def out(text: str, dtype: str = "float64") -> list[str]:
    return "".join(parse(HEAD + text, "t.py").run(dtype=dtype).output).splitlines()


def floats(line: str) -> np.ndarray:
    return np.array([float(v) for v in line.split()])


def test_gradient_reaches_weight_orig_as_central_differences() -> None:
    lines = out(
        "torch.manual_seed(5)\nm = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 2))\n"
        "prune.l1_unstructured(m[0], 'weight', amount=0.3)\n"
        "prune.ln_structured(m[0], 'weight', amount=1, n=2, dim=0)\n"
        "prune.random_unstructured(m[2], 'weight', amount=3)\n"
        "x = torch.randn(3, 4)\nW = m[0].weight_orig\n"
        "loss = lambda: (m(x) ** 2).sum()\n"
        "loss().backward()\nprint(*W.grad.flatten().tolist())\n"
        "print(*m[0].weight_mask.flatten().tolist())\n"
        "h = 1e-6\nfd = []\n"
        "with torch.no_grad():\n"
        "    for i in range(5):\n        for j in range(4):\n"
        "            W[i, j] += h\n            up = loss().item()\n"
        "            W[i, j] -= 2 * h\n            down = loss().item()\n"
        "            W[i, j] += h\n            fd.append((up - down) / (2 * h))\n"
        "print(*fd)\n"
    )
    grad, mask, fd = floats(lines[0]), floats(lines[1]), floats(lines[2])
    assert np.abs(grad).max() > 1e-3
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-8)
    # the pruned entries do not reach the output: exactly zero, the others are not all zero
    assert np.all(grad[mask == 0] == 0) and np.any(grad[mask == 1] != 0)
    # six entries, then one whole row (of those rows still holding any)
    assert (mask == 0).sum() >= 6 and (mask.reshape(5, 4).sum(1) == 0).sum() == 1


@pytest.mark.parametrize("shape,amount", [((7,), 0.5), ((4, 6), 0.25), ((3, 2, 5), 11)])
def test_l1_prunes_the_smallest_magnitudes(shape: tuple, amount: float) -> None:
    n = int(np.prod(shape))
    lines = out(
        f"torch.manual_seed(11)\nm = nn.Module()\nm.w = nn.Parameter(torch.randn({shape}))\n"
        f"prune.l1_unstructured(m, 'w', amount={amount})\n"
        "print(*m.w_orig.flatten().tolist())\nprint(*m.w_mask.flatten().tolist())\n"
        "print(*m.w.flatten().tolist())\n"
    )
    w, mask, pruned = floats(lines[0]), floats(lines[1]), floats(lines[2])
    k = amount if isinstance(amount, int) else round(amount * n)
    expected = np.ones(n)
    expected[np.argsort(np.abs(w))[:k]] = 0
    np.testing.assert_array_equal(mask, expected)
    np.testing.assert_array_equal(pruned, w * mask)


def test_a_second_pruning_acts_on_what_the_first_kept() -> None:
    lines = out(
        "torch.manual_seed(2)\nm = nn.Linear(10, 4)\n"
        "prune.random_unstructured(m, 'weight', amount=0.5)\n"
        "first = m.weight_mask.clone()\n"
        "prune.l1_unstructured(m, 'weight', amount=0.25)\n"
        "print(*first.flatten().tolist())\nprint(*m.weight_mask.flatten().tolist())\n"
        "print(*m.weight_orig.flatten().tolist())\n"
        "prune.ln_structured(m, 'weight', amount=1, n=1, dim=1)\n"
        "print(*m.weight_mask.flatten().tolist())\n"
    )
    first, second, w, third = (floats(v) for v in lines[:4])
    assert first.sum() == 20
    kept = np.flatnonzero(first)
    expected = first.copy()
    expected[kept[np.argsort(np.abs(w[kept]))[:5]]] = 0  # round(0.25 * 20)
    np.testing.assert_array_equal(second, expected)
    # structured on the columns still kept: the one of least L1 norm of the pruned weight
    cols = np.abs((w * second).reshape(4, 10)).sum(0)
    alive = np.flatnonzero(second.reshape(4, 10).sum(0) != 0)
    gone = alive[np.argmin(cols[alive])]
    expected3 = second.reshape(4, 10).copy()
    expected3[:, gone] = 0
    np.testing.assert_array_equal(third, expected3.flatten())


@pytest.mark.parametrize(
    "call,draw",
    [
        ("prune.random_unstructured(m, 'weight', amount=2)", "torch.rand(3, 5)"),
        ("prune.random_structured(m, 'weight', amount=1, dim=0)", "torch.rand(3)"),
        ("prune.random_structured(m, 'weight', amount=2, dim=1)", "torch.rand(5)"),
    ],
)
def test_random_pruning_draws_from_the_generator_as_pytorch(call: str, draw: str) -> None:
    # the same draws as PyTorch's code makes: the numbers after it are those after the draw
    lines = out(
        "m = nn.Linear(5, 3)\ntorch.manual_seed(9)\n"
        f"{call}\nprint(*torch.rand(4).tolist())\n"
        f"torch.manual_seed(9)\nd = {draw}\nprint(*torch.rand(4).tolist())\n",
        dtype="float32",
    )
    assert lines[0] == lines[1]


def test_global_pruning_is_one_threshold_over_all_layers() -> None:
    lines = out(
        "torch.manual_seed(4)\nm = nn.Sequential(nn.Linear(6, 5), nn.Linear(5, 3))\n"
        "ps = [(m[0], 'weight'), (m[1], 'weight'), (m[1], 'bias')]\n"
        "prune.global_unstructured(ps, pruning_method=prune.L1Unstructured, amount=0.4)\n"
        "for mod, name in ps:\n"
        "    print(*getattr(mod, name + '_orig').flatten().tolist())\n"
        "    print(*getattr(mod, name + '_mask').flatten().tolist())\n"
    )
    w = np.concatenate([floats(v) for v in lines[0::2]])
    mask = np.concatenate([floats(v) for v in lines[1::2]])
    assert mask.size == 48 and (mask == 0).sum() == round(0.4 * 48)
    assert np.abs(w[mask == 0]).max() < np.abs(w[mask == 1]).min()


def test_remove_keeps_the_parameter_object_with_the_pruned_values() -> None:
    lines = out(
        "torch.manual_seed(1)\nm = nn.Linear(3, 2)\nopt = torch.optim.SGD(m.parameters(), lr=1.0)\n"
        "prune.l1_unstructured(m, 'weight', amount=3)\npruned = m.weight.detach().clone()\n"
        "orig = m.weight_orig\nprune.remove(m, 'weight')\n"
        "print(m.weight is orig, type(m.weight).__name__, torch.equal(m.weight, pruned))\n"
        "print([n for n, _ in m.named_parameters()], list(m.named_buffers()))\n"
        "print(prune.is_pruned(m), hasattr(m, 'weight_mask'), hasattr(m, 'weight_orig'))\n"
        "m(torch.ones(1, 3)).sum().backward()\nopt.step()\n"
        "print(torch.equal(m.weight, pruned - 1.0))\n"
    )
    assert lines == [
        "True Parameter True",
        "['bias', 'weight'] []",
        "False False False",
        "True",
    ]


def test_a_programs_pruning_method() -> None:
    lines = out(
        "class Big(prune.BasePruningMethod):\n    PRUNING_TYPE = 'unstructured'\n"
        "    def __init__(self, limit):\n        self.limit = limit\n"
        "    def compute_mask(self, t, default_mask):\n"
        "        return default_mask * (t.abs() <= self.limit)\n"
        "m = nn.Module()\nm.w = nn.Parameter(torch.tensor([0.5, -3.0, 2.0, -0.1]))\n"
        "h = Big.apply(m, 'w', limit=1.0)\n"
        "print(m.w_mask.tolist(), h._tensor_name, type(h).__name__, h.limit)\n"
        "prune.l1_unstructured(m, 'w', amount=1)\nprint(m.w_mask.tolist())\n"
        "print(isinstance(h, prune.BasePruningMethod), issubclass(Big, prune.BasePruningMethod))\n"
    )
    assert lines == [
        "[1.0, 0.0, 0.0, 1.0] w Big 1.0",
        "[1.0, 0.0, 0.0, 0.0]",
        "True True",
    ]


@pytest.mark.parametrize(
    "text,words,kind",
    [
        (
            "prune.l1_unstructured(nn.Linear(2, 2), 'weight', amount=1.5)",
            "amount=1.5 should either be a float in the range [0, 1] or a non-negative integer",
            "ValueError",
        ),
        (
            "prune.l1_unstructured(nn.Linear(2, 2), 'weight', amount='a')",
            "Invalid type for amount: a. Must be int or float.",
            "TypeError",
        ),
        (
            "prune.random_unstructured(nn.Linear(2, 2), 'weight', amount=5)",
            "amount=5 should be smaller than the number of parameters to prune=4",
            "ValueError",
        ),
        (
            "prune.ln_structured(nn.Linear(2, 2), 'bias', amount=1, n=2, dim=0)",
            "Structured pruning can only be applied to multidimensional tensors. Found tensor of "
            "shape torch.Size([2]) with 1 dims",
            "ValueError",
        ),
        (
            "prune.random_structured(nn.Linear(2, 2), 'weight', amount=1, dim=3)",
            "Invalid index 3 for tensor of size torch.Size([2, 2])",
            "IndexError",
        ),
        (
            "prune.remove(nn.Linear(2, 2), 'weight')",
            "Parameter 'weight' of module Linear(in_features=2, out_features=2, bias=True) has to "
            "be pruned before pruning can be removed",
            "ValueError",
        ),
        (
            "prune.custom_from_mask(nn.Linear(2, 2), 'weight', torch.ones(3))",
            "default_mask shape torch.Size([2, 2]) must match self.mask shape torch.Size([3])",
            "AssertionError",
        ),
        (
            "prune.global_unstructured([(nn.Linear(2, 2), 'weight')], prune.RandomStructured, "
            "amount=1)",
            'Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
            "<class 'torch.nn.utils.prune.RandomStructured'> of type structured",
            "TypeError",
        ),
        (
            "class P(prune.BasePruningMethod):\n    pass\nP()",
            "Can't instantiate abstract class P with abstract method compute_mask",
            "TypeError",
        ),
    ],
)
def test_refusals_in_pytorchs_words(text: str, words: str, kind: str) -> None:
    with pytest.raises(GradcliError) as e:
        out(text)
    assert e.value.message == words
    assert e.value.python_class == kind


def test_a_failed_pruning_leaves_the_module_as_it_was() -> None:
    lines = out(
        "m = nn.Linear(2, 2)\n"
        "try:\n    prune.l1_unstructured(m, 'weight', amount=9)\n"
        "except ValueError as e:\n    pass\n"
        "print([n for n, _ in m.named_parameters()], list(m.named_buffers()), "
        "prune.is_pruned(m))\n"
    )
    assert lines == ["['bias', 'weight'] [] False"]
