"""torch.autograd.grad called in a function vmap maps over: PyTorch's autograd runs beneath
the batching, so a tensor that depends on the mapped inputs (a BatchedTensor) neither
requires grad nor has a grad_fn there (gradcli, running the function once per element,
gave each element's gradient in silence). Outputs are checked in order (the message names the
first one), then the inputs; what does not depend on the mapped inputs differentiates, and a
torch.func transform inside the vmap sees its own tensors as requiring grad."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

HEAD = (
    "import torch\nfrom torch.func import vmap, grad\n"
    "xs = torch.tensor([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]], requires_grad=True)\n"
    "w = torch.tensor([2.0, -3.0], requires_grad=True)\n"
)


def run(text: str) -> str:
    return "".join(parse(HEAD + text, "t.py").run().output)


@pytest.mark.parametrize(
    ("call", "words"),
    [
        ("torch.autograd.grad((x * w).sum(), w)", "element 0 of tensors does not require grad"),
        ("torch.autograd.grad((x ** 2).sum(), x)", "element 0 of tensors does not require grad"),
        (
            "torch.autograd.grad([(w * w).sum(), (x * w).sum()], w)",
            "element 1 of tensors does not require grad",
        ),
        (
            "torch.autograd.grad(x * w, w, torch.ones(2))",
            "element 0 of tensors does not require grad",
        ),
        (
            "torch.autograd.grad((w * w).sum(), [w, x], allow_unused=True)",
            "One of the differentiated Tensors does not require grad",
        ),
    ],
)
def test_batched_tensors_do_not_require_grad(call: str, words: str) -> None:
    with pytest.raises(GradcliError, match=words):
        run(f"def f(x):\n    return {call}\nvmap(f)(xs)\n")


def test_grad_output_shape_checked_before_the_outputs() -> None:
    with pytest.raises(GradcliError, match="Mismatch in shape: grad_output"):
        run("def f(x):\n    return torch.autograd.grad(x * w, w, torch.ones(3))\nvmap(f)(xs)\n")


def test_unbatched_part_differentiates() -> None:
    out = run(
        "def f(x):\n    (g,) = torch.autograd.grad((w ** 3).sum(), w)\n    return g * x\n"
        "print(vmap(f)(xs).tolist())\n"
    )
    got = np.array(eval(out))  # noqa: S307 - a list of floats printed by the test's own program
    want = 3 * np.array([2.0, -3.0]) ** 2 * np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]])
    np.testing.assert_allclose(got, want)


def test_autograd_grad_inside_func_grad_inside_vmap() -> None:
    # the innermost transform is grad: its tensors require grad there, as in PyTorch
    out = run(
        "def inner(x):\n    y = (x ** 3).sum()\n"
        "    (g,) = torch.autograd.grad(y, x, create_graph=True)\n    return g.sum()\n"
        "print(vmap(grad(inner))(xs.detach()).tolist())\n"
    )
    x = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.25]])
    np.testing.assert_allclose(np.array(eval(out)), 6 * x)  # noqa: S307


def test_outputs_named_by_their_place_outside_vmap() -> None:
    with pytest.raises(GradcliError, match="element 1 of tensors does not require grad"):
        run("torch.autograd.backward([w.sum(), xs.detach().sum()])\n")


def test_batched_tensors_show_no_history() -> None:
    out = run(
        "def f(x):\n    y = x * w\n"
        "    print(x.requires_grad, x.is_leaf, x.grad_fn, y.requires_grad, y.is_leaf, y.grad_fn)\n"
        "    print(w.requires_grad, (w * 2).grad_fn is not None)\n    return y\n"
        "vmap(f)(xs)\nprint(vmap(lambda x: x * w)(xs).grad_fn is not None)\n"
    )
    assert out.split() == ["False", "True", "None", "False", "True", "None", "True", "True", "True"]
