"""In-place changes inside torch.func grad transforms (explore29): PyTorch refuses to change a
tensor the function captured (made outside the transform and not passed to it, or a view or
detached alias of one), naming the ATen operation; what the function made or was given it may
change. Before, gradcli changed the captured tensor silently. Names and words are PyTorch
2.13's (checked by hand with /work/torchenv); allowed gradients against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.base.errors import GradcliError
from gradcli.lang.program import parse

WORDS = (
    "During a grad (vjp, jvp, grad, etc) transform, the function provided attempted to call "
    "in-place operation ({op}) that would mutate a captured Tensor. This is not supported; "
    "please rewrite the function being transformed to explicitly accept the mutated Tensor(s) "
    "as inputs."
)


def out(text: str) -> str:
    return "".join(parse(text, "t.py").run(dtype="float64").output)


def refused(body: str, transform: str = "grad(f)(x)") -> str:
    """The message the program's `except RuntimeError` catches for `f` with `body`."""
    got = out(
        "import torch\nfrom torch.func import grad, jacrev, jacfwd, vjp, jvp, hessian\n"
        "c = torch.ones(3)\nci = torch.ones(3, dtype=torch.long)\n"
        "w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "x = torch.tensor([0.3, -0.2, 0.5], dtype=torch.float64)\n"
        f"def f(x):\n    {body}\n    return (x * x).sum()\n"
        f"try:\n    {transform}\n    print('ran', c)\nexcept RuntimeError as e:\n    print(e)\n"
    )
    return got.strip()


@pytest.mark.parametrize(
    ("body", "op"),
    [
        ("c.add_(1)", "aten::add_.Tensor"),
        ("c.sub_(x.float())", "aten::sub_.Tensor"),
        ("c.mul_(2)", "aten::mul_.Tensor"),
        ("c.div_(2, rounding_mode='floor')", "aten::div_.Tensor_mode"),
        ("c.pow_(2)", "aten::pow_.Scalar"),
        ("c.exp_()", "aten::exp_"),
        ("c.clamp_(min=0)", "aten::clamp_"),
        ("c.clamp_min_(0)", "aten::clamp_min_"),
        ("c.fill_(0)", "aten::fill_.Scalar"),
        ("c.zero_()", "aten::zero_"),
        ("c.copy_(x)", "aten::copy_"),
        ("c[0] = 3.0", "aten::copy_"),
        ("c[c > 0] = 3.0", "aten::index_put_"),
        ("c[[0, 2]] = 3.0", "aten::index_put_"),
        ("c += 1", "aten::add_.Tensor"),
        ("c **= 2", "aten::pow_.Scalar"),
        ("c //= 2", "aten::floor_divide_.Tensor"),
        ("ci |= 1", "aten::__ior__.Scalar"),
        ("c.normal_()", "aten::normal_"),
        ("c.masked_fill_(c > 0, 0.0)", "aten::masked_fill_.Scalar"),
        ("torch.nn.functional.relu(c, inplace=True)", "aten::relu_"),
        ("c.view(3).add_(1)", "aten::add_.Tensor"),
        ("c[1:].mul_(2)", "aten::mul_.Tensor"),
        ("c.detach().add_(1)", "aten::add_.Tensor"),
        ("c.data.add_(1)", "aten::add_.Tensor"),
        ("w.data.mul_(2)", "aten::mul_.Tensor"),
    ],
)
def test_a_captured_tensor_changed_in_place_is_refused_naming_the_operation(
    body: str, op: str
) -> None:
    if "c +=" in body or "**=" in body or "//=" in body or "|=" in body:
        # (an augmented assignment to a global rebinds it: change it through a list)
        body = "box = [c, ci]\n    " + body.replace("ci ", "box[1] ").replace("c ", "box[0] ")
    assert refused(body) == WORDS.format(op=op)


@pytest.mark.parametrize(
    "transform",
    [
        "grad(f)(x)",
        "jacrev(f)(x)",
        "jacfwd(f)(x)",
        "hessian(f)(x)",
        "vjp(f, x)",
        "jvp(f, (x,), (x,))",
    ],
)
def test_every_grad_transform_refuses_and_leaves_the_tensor_unchanged(transform: str) -> None:
    assert refused("c.add_(1)", transform) == WORDS.format(op="aten::add_.Tensor")
    got = out(
        "import torch\nfrom torch.func import grad, jacrev, jacfwd, vjp, jvp, hessian\n"
        "c = torch.ones(2)\nx = torch.tensor([0.3, -0.2])\n"
        "def f(x):\n    c.add_(1)\n    return (x * x).sum()\n"
        f"try:\n    {transform}\nexcept RuntimeError:\n    pass\nprint(c)\n"
    )
    assert got == "tensor([1., 1.])\n"


def test_what_the_function_makes_or_is_given_it_may_change() -> None:
    got = out(
        "import torch\nfrom torch.func import grad\n"
        "x = torch.tensor([0.3, -0.2, 0.5], dtype=torch.float64)\n"
        "buf = torch.ones(2, dtype=torch.float64)\n"
        "def f(x, buf, scale=None):\n"
        "    s = torch.zeros(3, dtype=torch.float64)\n"
        "    s += x.sin()\n    s[0] = s[0] * 3\n    s[1:].mul_(2)\n"
        "    v = s.view(3)\n    v.add_(x * x)\n    buf.mul_(0.5)\n    scale.add_(1)\n"
        "    d = x.detach()\n    return (s * s).sum()\n"
        "k = torch.zeros(1)\n"
        "g = grad(f)(x, buf, scale=k)\nprint(g.tolist())\nprint(buf.tolist(), k.tolist())\n"
    )
    lines = got.splitlines()
    x = np.array([0.3, -0.2, 0.5])

    def fn(v: np.ndarray) -> float:
        s = np.sin(v) * np.array([3.0, 2.0, 2.0]) + v * v
        return float(np.sum(s * s))

    h = 1e-6
    num = np.array(
        [(fn(x + h * np.eye(3)[i]) - fn(x - h * np.eye(3)[i])) / (2 * h) for i in range(3)]
    )
    np.testing.assert_allclose(np.array(eval(lines[0])), num, rtol=1e-7, atol=1e-9)  # noqa: S307
    assert lines[1:] == ["[0.5, 0.5] [1.0]"]


def test_a_tensor_of_an_enclosing_transform_is_captured_by_the_inner_one() -> None:
    got = out(
        "import torch\nfrom torch.func import grad\nx = torch.tensor([1.0, 2.0])\n"
        "def outer(x):\n    y = x * 3\n    def inner(z):\n        y.mul_(2)\n"
        "        return (z * y).sum()\n    return grad(inner)(x).sum()\n"
        "try:\n    grad(outer)(x)\nexcept RuntimeError as e:\n    print(e)\n"
        "def outer2(x):\n    y = x * 3\n    y.mul_(2)\n    return (y * y).sum()\n"
        "print(grad(outer2)(x))\n"
    )
    assert got == WORDS.format(op="aten::mul_.Tensor") + "\ntensor([ 72., 144.])\n"


def test_train_mode_batch_norm_under_jacrev_is_refused_and_its_statistics_kept() -> None:
    got = out(
        "import torch\nfrom torch.func import jacrev, grad\nbn = torch.nn.BatchNorm1d(2)\n"
        "b = torch.tensor([[1.0, 2.0], [3.0, 5.0], [0.0, -1.0]])\n"
        "try:\n    jacrev(bn)(b)\nexcept RuntimeError as e:\n    print(e)\n"
        "print(bn.num_batches_tracked, bn.running_mean)\n"
        "nt = torch.nn.BatchNorm1d(2, track_running_stats=False)\n"
        "print(grad(lambda v: nt(v).pow(3).sum())(b).shape)\n"
    )
    assert got == (
        WORDS.format(op="aten::add_.Tensor") + "\ntensor(0) tensor([0., 0.])\ntorch.Size([3, 2])\n"
    )


def test_an_uncaught_refusal_points_at_the_change() -> None:
    with pytest.raises(GradcliError, match="mutate a captured Tensor") as info:
        out(
            "import torch\nfrom torch.func import grad\nc = torch.ones(1)\n"
            "def f(x):\n    c.add_(1)\n    return x.sum()\n"
            "grad(f)(torch.ones(2))\n"
        )
    assert info.value.span is not None and info.value.span.line == 5


def test_vmap_alone_changes_a_captured_tensor_as_before() -> None:
    # (no grad transform: gradcli's own vmap words, unchanged by this check)
    got = out(
        "import torch\nfrom torch.func import vmap\nc = torch.zeros(2)\n"
        "def f(x):\n    c.add_(1)\n    return x * 2\n"
        "print(vmap(f)(torch.ones(1, 2)))\nprint(c)\n"
    )
    assert got == "tensor([[2., 2.]])\ntensor([1., 1.])\n"


@pytest.mark.parametrize(
    ("make", "first", "later"),
    [
        ("torch.optim.SGD([w], lr=0.1)", "aten::add_.Tensor", "aten::add_.Tensor"),
        ("torch.optim.SGD([w], lr=0.1, momentum=0.9)", "aten::add_.Tensor", "aten::mul_.Tensor"),
        ("torch.optim.Adam([w], lr=0.1)", "aten::addcdiv_", "aten::add_.Tensor"),
        ("torch.optim.AdamW([w], lr=0.1)", "aten::mul_.Tensor", "aten::add_.Tensor"),
        ("torch.optim.RMSprop([w], lr=0.1)", "aten::addcdiv_", "aten::add_.Tensor"),
        ("torch.optim.Adagrad([w], lr=0.1)", "aten::add_.Tensor", "aten::add_.Tensor"),
    ],
)
def test_an_optimizer_step_inside_a_transform_is_refused_on_captured_parameters(
    make: str, first: str, later: str
) -> None:
    # (first: the step that makes the optimizer's state inside the transform; later: one
    # that changes state kept from a step outside it; the parameter is unchanged by both)
    got = out(
        "import torch\nfrom torch.func import grad\nw = torch.ones(2, requires_grad=True)\n"
        f"opt = {make}\nw.grad = torch.ones(2)\n"
        "def f(x):\n    opt.step()\n    return x.sum()\n"
        "for _ in range(2):\n    try:\n        grad(f)(torch.ones(2))\n"
        "    except RuntimeError as e:\n        print(str(e).split('(')[2].split(')')[0])\n"
        "    print(w.tolist())\n    opt.step()\n"
    )
    lines = got.splitlines()
    assert lines[0] == first and lines[2] == later
    assert lines[1] == "[1.0, 1.0]"  # the refused step changed nothing
