"""Scripts as Python runs them (explore41): a program with `import torch` has no name it does
not bind or import (`F` before `import torch.nn.functional as F` is Python's NameError, where
gradcli used to hand it torch.nn.functional and print numbers PyTorch never prints); a list
used as a tensor index that holds lists, ranges, tensors, slices or None is a tuple of indices
with PyTorch 2.13's deprecation warning (a nested list picked rows where PyTorch picks
elements); a range in an assignment's index is index_put (IndexPutBackward0). Expected values
are PyTorch 2.13's, checked with /work/torchenv."""

from __future__ import annotations

import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

_RUNS = [0]


def run(text: str) -> tuple[list[str], list[str]]:
    # (a file of its own each time: a warning is shown once per place, as Python's are)
    _RUNS[0] += 1
    r = parse(text, f"names{_RUNS[0]}.py").run(dtype="float32")
    return "".join(r.output).splitlines(), [str(w) for w in r.warnings]


@pytest.mark.parametrize(
    ("imports", "name"),
    [
        ("import torch\nimport torch.nn as nn\n", "F"),
        ("import torch\n", "nn"),
        ("import torch\nfrom torch import nn\n", "optim"),
        ("import torch as T\n", "torch"),
        ("import torch\n", "np"),
    ],
)
def test_a_program_that_imports_torch_has_only_the_names_it_imports(
    imports: str, name: str
) -> None:
    with pytest.raises(GradcliError) as err:
        run(imports + f"print({name})\n")
    assert err.value.message == f"name '{name}' is not defined"
    assert "import" in (err.value.hint or "")
    got, _ = run(imports + f"try:\n    {name}\nexcept NameError as e:\n    print(e)\n")
    assert got == [f"name '{name}' is not defined"]


def test_a_name_is_found_once_imported_even_by_a_function_defined_before() -> None:
    got, _ = run(
        "import torch\n"
        "def act(t):\n    return F.relu(t)\n"
        "try:\n    act(torch.tensor([-1.0]))\nexcept NameError as e:\n    print(e)\n"
        "import torch.nn.functional as F\n"
        "print(act(torch.tensor([-1.0, 2.0])))\n"
        "del F\n"
        "try:\n    F\nexcept NameError as e:\n    print(e)\n"
    )
    assert got == ["name 'F' is not defined", "tensor([0., 2.])", "name 'F' is not defined"]


def test_snippets_without_imports_and_star_imports_keep_the_bare_names() -> None:
    # (gradcli's convenience for import-free snippets, and what `import *` brings in)
    assert run("x = torch.ones(2)\nprint(F.relu(x - 2))\n")[0] == ["tensor([0., 0.])"]
    assert run("from torch import *\nprint(tanh(zeros(1)))\n")[0] == ["tensor([0.])"]
    assert run("import math\nprint(torch.ones(1))\n")[0] == ["tensor([1.])"]
    # (a program that imports only from torch keeps them: analysis snippets are written so)
    assert run("import torch.nn as nn\nprint(nn.ReLU()(torch.ones(1)))\n")[0] == ["tensor([1.])"]


SEQUENCE = "Using a non-tuple sequence for multidimensional indexing is deprecated"


@pytest.mark.parametrize(
    ("key", "printed"),
    [
        ("[[0, 1], [1, 3]]", "tensor([1., 7.])"),
        ("[torch.tensor([0, 2]), range(2)]", "tensor([0., 9.])"),
        ("[slice(0, 2), 1]", "tensor([1., 5.])"),
        ("[None, 1]", "tensor([[4., 5., 6., 7.]])"),
        ("[[1, 2], 0]", "tensor([4., 8.])"),
    ],
)
def test_a_list_holding_sequences_or_slices_is_a_tuple_of_indices(key: str, printed: str) -> None:
    got, warned = run(f"import torch\nx = torch.arange(12.0).view(3, 4)\nprint(x[{key}])\n")
    assert got == [printed]
    assert sum(SEQUENCE in w for w in warned) == 1


def test_a_list_of_numbers_stays_one_index_and_32_items_are_never_a_tuple() -> None:
    got, warned = run(
        "import torch\nx = torch.arange(12.0).view(3, 4)\nprint(x[[0, 2]].shape)\n"
        "y = torch.arange(40.0)\nprint(y[[[0, 1]] * 32].shape)\n"
    )
    # (NumPy's rule stops at 32 items: 32 lists of two are one 32 x 2 index)
    assert got == ["torch.Size([2, 4])", "torch.Size([32, 2])"]
    assert not any(SEQUENCE in w for w in warned)


def test_assignment_through_a_list_key_and_its_gradient() -> None:
    got, warned = run(
        "import torch\nw = torch.ones(3, 4, requires_grad=True)\n"
        "y = w * torch.arange(12.0).view(3, 4)\n"
        "y[[torch.tensor([0, 2]), range(2)]] = 0.0\nprint(y.grad_fn.name())\n"
        "z = w * 1.0\nz[range(3), range(3)] = -1.0\nprint(z.grad_fn.name())\n"
        "(y.sum() + z.pow(2).sum()).backward()\nprint(w.grad[:, :3].tolist())\n"
        "g = torch.ones(2, 3)\ng[[torch.arange(2), torch.tensor([1, 2])]] -= 1\n"
        "print(g.tolist())\n"
    )
    assert got == [
        "IndexPutBackward0",
        "IndexPutBackward0",
        "[[0.0, 3.0, 4.0], [6.0, 5.0, 8.0], [10.0, 2.0, 10.0]]",
        "[[1.0, 0.0, 1.0], [1.0, 1.0, 0.0]]",
    ]
    # (`g[k] -= 1` reads and writes the item: PyTorch warns twice at one place, shown once)
    assert sum(SEQUENCE in w for w in warned) == 2


def test_a_subclass_of_a_builtin_with_dunders_is_refused_for_its_base() -> None:
    with pytest.raises(GradcliError) as err:
        run("class Pair(list):\n    def __add__(self, o):\n        return self\n")
    assert "subclasses of torch.nn.Module" in err.value.message
    assert "nn.Module subclass" not in str(err.value.hint)
