"""What older scripts and data-preparation code pass (explore41): reduction='elementwise_mean'
(PyTorch's get_enum: 'mean' with its deprecation warning; any other unknown word its
ValueError, without quotes; multilabel_soft_margin_loss's own "is not valid"); NumPy's
linspace(endpoint=, retstep=), logical_and/or/xor/not and atleast_1d; nn.init.normal_ /
uniform_ bounds given as 0-d tensors. Expected values are PyTorch 2.13's / NumPy's, checked
with /work/torchenv."""

from __future__ import annotations

import pytest

from gradcli.lang.program import parse

_RUNS = [0]
DEPRECATED = "reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead."


def run(text: str) -> tuple[list[str], list[str]]:
    _RUNS[0] += 1
    r = parse(
        "import torch\nimport torch.nn.functional as F\nimport numpy as np\n" + text,
        f"legacy{_RUNS[0]}.py",
    ).run(dtype="float32")
    return "".join(r.output).splitlines(), [str(w) for w in r.warnings]


LOSSES = [
    "F.l1_loss(p, t, reduction=R)",
    "F.mse_loss(p, t, reduction=R)",
    "F.smooth_l1_loss(p, t, reduction=R)",
    "F.huber_loss(p, t, reduction=R)",
    "F.binary_cross_entropy_with_logits(p, (t > 0).float(), reduction=R)",
    "F.cross_entropy(p, torch.tensor([1, 0]), reduction=R)",
    "F.kl_div(F.log_softmax(p, 1), F.softmax(t, 1), reduction=R)",
    "F.margin_ranking_loss(p[0], p[1], torch.tensor([1.0, -1.0, 1.0]), reduction=R)",
    "torch.nn.SmoothL1Loss(reduction=R)(p, t)",
]
SETUP = (
    "p = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.3]], requires_grad=True)\n"
    "t = torch.tensor([[0.0, -0.5, 1.0], [1.0, 0.2, 0.0]])\n"
)


@pytest.mark.parametrize("loss", LOSSES)
def test_elementwise_mean_is_mean_with_the_deprecation_warning(loss: str) -> None:
    old = loss.replace("R", "'elementwise_mean'")
    new = loss.replace("R", "'mean'")
    got, warned = run(
        SETUP + f"a = {old}\nb = {new}\nprint(torch.equal(a, b), a.grad_fn.name() == "
        "b.grad_fn.name())\n(a + b).backward()\nprint(p.grad.abs().sum() > 0)\n"
    )
    assert got == ["True True", "tensor(True)"]
    assert any(DEPRECATED in w for w in warned)


def test_an_unknown_reduction_is_a_value_error_in_pytorch_words() -> None:
    got, _ = run(
        SETUP + "for r in ['avg', None]:\n    try:\n        F.mse_loss(p, t, reduction=r)\n"
        "    except ValueError as e:\n        print(e)\n"
        "try:\n    F.multilabel_soft_margin_loss(p, (t > 0).float(),"
        " reduction='elementwise_mean')\n"
        "except ValueError as e:\n    print(e)\n"
    )
    assert got == [
        "avg is not a valid value for reduction",
        "None is not a valid value for reduction",
        "elementwise_mean is not valid",
    ]


def test_numpy_linspace_endpoint_and_retstep() -> None:
    got, _ = run(
        "print(np.linspace(0, 1, 4, endpoint=False))\n"
        "print(np.linspace(-1.0, 1.0, 5, retstep=True))\n"
        "print(np.linspace(0, np.pi, 3, endpoint=False, dtype=np.float32))\n"
        "print(np.linspace(2, 3, 2, False, True))\n"
    )
    assert got == [
        "[0.   0.25 0.5  0.75]",
        "(array([-1. , -0.5,  0. ,  0.5,  1. ]), np.float64(0.5))",
        "[0.        1.0471976 2.0943952]",
        "(array([2. , 2.5]), np.float64(0.5))",
    ]


def test_numpy_logical_functions_and_atleast_1d() -> None:
    got, _ = run(
        "m = np.array([0, 1, 1, 2]) == 1\nprint(np.logical_not(m))\n"
        "print(np.logical_and(m, [True, False, True, True]), np.logical_or(m, False))\n"
        "print(np.logical_xor(m, np.array([[True], [False]])))\n"
        "print(np.where(np.logical_not(m))[0])\n"
        "print(np.atleast_1d(2.5), np.atleast_1d(np.zeros((2, 1))).shape, np.atleast_1d(1, [2]))\n"
        "try:\n    np.logical_and(np.zeros(3), np.zeros(2))\nexcept ValueError as e:\n"
        "    print('ValueError')\n"
    )
    assert got == [
        "[ True False False  True]",
        "[False False  True False] [False  True  True False]",
        "[[ True False False  True]",
        " [False  True  True False]]",
        "[0 3]",
        "[2.5] (2, 1) (array([1]), array([2]))",
        "ValueError",
    ]


def test_init_bounds_given_as_zero_dimensional_tensors() -> None:
    got, _ = run(
        "torch.manual_seed(0)\nw = torch.empty(2, 3)\n"
        "torch.nn.init.normal_(w, mean=0.0, std=1.0 / torch.sqrt(torch.tensor(4.0)))\n"
        "a = w.clone()\ntorch.manual_seed(0)\ntorch.nn.init.normal_(w, 0.0, 0.5)\n"
        "print(torch.equal(a, w))\n"
        "torch.nn.init.uniform_(w, a=torch.tensor(-2.0), b=torch.tensor(-1, dtype=torch.int64))\n"
        "print(bool(((w >= -2) & (w <= -1)).all()))\n"
        "for s in [torch.tensor([0.5]), torch.tensor(0.5, requires_grad=True)]:\n"
        "    try:\n        torch.nn.init.normal_(w, std=s)\n"
        "    except TypeError as e:\n        print(e)\n"
        "try:\n    torch.nn.init.uniform_(w, torch.tensor([1.0, 2.0]))\n"
        "except TypeError as e:\n    print(e)\n"
    )
    assert got == [
        "True",
        "True",
        "normal_(): argument 'std' (position 2) must be float, not Tensor",
        "normal_(): argument 'std' (position 2) must be float, not Tensor",
        "uniform_(): argument 'from' (position 1) must be float, not Tensor",
    ]


@pytest.mark.parametrize(
    ("made", "reduction"),
    [
        ("torch.nn.BCELoss(size_average=True)", "mean"),
        ("torch.nn.MSELoss(reduce=False)", "none"),
        ("torch.nn.L1Loss(size_average=False)", "sum"),
    ],
)
def test_a_loss_module_warns_of_size_average_once_where_it_is_made(
    tmp_path, made: str, reduction: str
) -> None:
    # PyTorch's loss module turns size_average / reduce into its reduction when it is made
    # (its one warning); its forward passes `reduction=` alone, so calling it warns no more
    from typer.testing import CliRunner

    from gradcli.cli.main import app

    program = tmp_path / "p.py"
    program.write_text(
        f"import torch\nc = {made}\nx = torch.tensor([0.25, 0.75])\n"
        "y = torch.tensor([0.0, 1.0])\nfor _ in range(2):\n    print(c(x, y))\n"
        "print(c.reduction)\n"
    )
    result = CliRunner().invoke(app, ["run", str(program)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == reduction
    legacy = [line for line in result.stderr.splitlines() if "size_average and reduce" in line]
    assert len(legacy) == 1 and "p.py:2:" in legacy[0]
