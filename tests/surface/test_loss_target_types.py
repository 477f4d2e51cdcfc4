"""Losses given a Python number, list, None or NumPy array where PyTorch wants a tensor: the
error PyTorch raises (its Python code's `target.size()` for the size-comparing losses, its
argument parser for the others), caught by the program as PyTorch's class; never a loss
computed from a converted number (issue 10: a program PyTorch refuses must not run)."""

from __future__ import annotations

import pytest

from gradcli.analysis import api

SIZED = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy"]
SIZED += ["binary_cross_entropy_with_logits"]
PARSED = ["kl_div", "soft_margin_loss", "hinge_embedding_loss", "poisson_nll_loss"]


def _caught(call: str) -> str:
    src = (
        "import numpy as np\nimport torch\nimport torch.nn.functional as F\n"
        "p = torch.full((2,), 0.5)\n"
        f"try:\n    r = {call}\n    print('computed', r)\n"
        "except (TypeError, AttributeError) as e:\n    print(type(e).__name__, e)\n"
    )
    return "".join(api.load(src).output).strip()


@pytest.mark.parametrize("fn", SIZED)
@pytest.mark.parametrize(
    ("value", "named"),
    [("1.0", "float"), ("[1.0, 0.0]", "list"), ("None", "NoneType"), ("2", "int")],
)
def test_size_comparing_losses_ask_the_target_then_the_input(fn, value, named):
    words = f"AttributeError '{named}' object has no attribute 'size'"
    assert _caught(f"F.{fn}(p, {value})") == words
    assert _caught(f"F.{fn}({value}, p)") == words
    # the target is asked first: both wrong names the target's type
    assert _caught(f"F.{fn}({value}, 'a')") == "AttributeError 'str' object has no attribute 'size'"


@pytest.mark.parametrize("fn", SIZED)
def test_a_numpy_target_is_the_int_of_its_size(fn):
    assert _caught(f"F.{fn}(p, np.ones(2))") == "TypeError 'int' object is not callable"


@pytest.mark.parametrize("fn", PARSED)
def test_parsed_losses_name_the_kernel_and_check_the_input_first(fn):
    assert _caught(f"F.{fn}(p, 1.0)") == (
        f"TypeError {fn}(): argument 'target' (position 2) must be Tensor, not float"
    )
    assert _caught(f"F.{fn}([0.5], [1.0])") == (
        f"TypeError {fn}(): argument 'input' (position 1) must be Tensor, not list"
    )
    # by keyword, the kernel still has it by position
    assert _caught(f"F.{fn}(p, target=1.0)") == (
        f"TypeError {fn}(): argument 'target' (position 2) must be Tensor, not float"
    )
    # called through another name, the kernel's name stays PyTorch's
    assert _caught(f"(lambda a, b: F.{fn}(a, b))(p, None)") == (
        f"TypeError {fn}(): argument 'target' (position 2) must be Tensor, not NoneType"
    )


def test_loss_modules_refuse_as_their_functions():
    assert _caught("torch.nn.MSELoss()(p, 5.0)") == (
        "AttributeError 'float' object has no attribute 'size'"
    )
    assert _caught("torch.nn.KLDivLoss(reduction='sum')(p, [0.5, 0.5])") == (
        "TypeError kl_div(): argument 'target' (position 2) must be Tensor, not list"
    )


def test_tensors_still_compute_with_integer_and_broadcast_targets():
    assert _caught("F.mse_loss(p, torch.tensor([1, 0]))") == "computed tensor(0.2500)"
    assert _caught("F.l1_loss(p, torch.tensor(1.0))").startswith("computed tensor(0.5000)")
    assert _caught("F.multilabel_soft_margin_loss(p, 1.0)") == "computed tensor(0.4741)"


def test_gaussian_and_multilabel_meet_pytorchs_own_operations():
    var = "torch.ones(2)"
    assert _caught(f"F.gaussian_nll_loss(p, [1.0, 2.0], {var})") == (
        "TypeError unsupported operand type(s) for -: 'Tensor' and 'list'"
    )
    assert _caught(f"F.gaussian_nll_loss(0.5, p, {var})") == (
        "AttributeError 'float' object has no attribute 'size'"
    )
    assert _caught("F.gaussian_nll_loss(0.5, p, 1.0)") == (
        "TypeError ones_like(): argument 'input' (position 1) must be Tensor, not float"
    )
    assert _caught("F.multilabel_soft_margin_loss(p, None)") == (
        "TypeError unsupported operand type(s) for *: 'NoneType' and 'Tensor'"
    )
    assert _caught("F.multilabel_soft_margin_loss(2.0, p)") == (
        "TypeError log_sigmoid(): argument 'input' (position 1) must be Tensor, not float"
    )


def test_class_weights_of_another_dtype_are_refused_after_the_shape():
    import numpy as np

    from gradcli.base.errors import GradcliError
    from gradcli.core.tensor import Tensor
    from gradcli.surface import losses as L

    x, t = np.zeros((2, 3)), Tensor(np.array([0, 2]))
    w32, w64 = Tensor(np.ones(3, np.float32)), Tensor(np.ones(3))
    calls = [
        (
            lambda: L.nll_loss(Tensor(x), t, weight=w32),
            "expected scalar type Double but found Float",
        ),
        (
            lambda: L.cross_entropy(Tensor(x.astype(np.float32)), t, weight=w64),
            "Float but found Double",
        ),
        (
            lambda: L.nll_loss(
                Tensor(x.reshape(2, 3, 1)), Tensor(np.array([[0], [2]])), weight=w32
            ),
            "Double but found Float",
        ),
        (
            lambda: L.nll_loss(Tensor(x), t, weight=Tensor(np.ones(4, np.float32))),
            "for all 3 classes",
        ),
    ]
    for call, words in calls:
        with pytest.raises(GradcliError, match=words):
            call()
    assert L.nll_loss(Tensor(x), t, weight=w64).data == 0.0
