"""`torch.autograd.gradcheck` / `gradgradcheck` on the one finite-difference engine: PyTorch's
verdicts and messages, a wrong rule caught (1%, 90%) and passed where PyTorch's tolerance passes
it (0.1%), float32 inputs warned about and failing as in PyTorch."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import gradcli.surface.names  # noqa: F401  (installs the tensor methods)
from gradcli.core import hooks
from gradcli.core.tensor import Settings, Tensor
from gradcli.ops import REGISTRY
from gradcli.surface.gradcheck import GradcheckError, gradcheck, gradgradcheck


def _x(*v: float, dtype=np.float64) -> Tensor:
    return Tensor(np.array(v, dtype=dtype), requires_grad=True)


class wrong_rule:
    """The VJP of a registry record scaled by `factor` for the duration."""

    def __init__(self, name: str, factor: float):
        self.op, self.factor = REGISTRY[name], factor

    def __enter__(self) -> None:
        self.saved = self.op.vjp
        inner, k = self.saved, self.factor
        self.op.vjp = lambda g, out, *a, **p: tuple(
            None if r is None else r * k for r in inner(g, out, *a, **p)
        )

    def __exit__(self, *exc: object) -> None:
        self.op.vjp = self.saved


def test_right_functions_pass():
    x, y = _x(0.3, -1.2, 2.0), _x(1.0, 0.5, -0.7)
    assert gradcheck(lambda a: a.sin(), (x,))
    assert gradcheck(lambda a, b: (a * b).tanh(), (x, y))
    assert gradcheck(lambda a, b: (a * b, a.exp()), (x, y))  # two outputs
    assert gradcheck(lambda a: a.sin(), x)  # one tensor, not a tuple
    assert gradgradcheck(lambda a, b: (a * b).sin().sum(), (x, y))


@pytest.mark.parametrize("factor", [1.01, 1.9])
def test_a_wrong_rule_fails_with_pytorchs_message(factor):
    x = _x(0.3, -1.2, 2.0)
    with wrong_rule("sin", factor):
        assert gradcheck(lambda a: a.sin(), (x,), raise_exception=False) is False
        with pytest.raises(GradcheckError) as e:
            gradcheck(lambda a: a.sin(), (x,))
    msg = e.value.message
    assert msg.startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
    assert "\nanalytical:" in msg and e.value.python_class == "GradcheckError"
    assert gradcheck(lambda a: a.sin(), (x,))


def test_within_pytorchs_tolerance_passes_as_in_pytorch():
    # rtol=1e-3 by default: a rule 0.1% off passes PyTorch's gradcheck too; a tighter rtol
    # catches it.
    x = _x(0.3, -1.2, 2.0)
    with wrong_rule("sin", 1.0005):
        assert gradcheck(lambda a: a.sin(), (x,))
        assert not gradcheck(lambda a: a.sin(), (x,), rtol=1e-4, raise_exception=False)


def test_float32_inputs_warn_and_fail(monkeypatch):
    seen: list[str] = []
    monkeypatch.setattr(hooks, "warning_sink", lambda m, h, once=False: seen.append(m))
    x = _x(1.0, 2.0, dtype=np.float32)
    assert gradcheck(lambda a: a.sin(), (x,), raise_exception=False) is False
    assert seen and seen[0].startswith("Input #0 requires gradient and is not a double")


def test_no_input_requiring_grad_is_pytorchs_value_error():
    with pytest.raises(Exception) as e:
        gradcheck(lambda a: a.sin(), (Tensor(np.array([1.0])),))
    assert "gradcheck expects at least one input tensor to require gradient" in str(e.value)
    assert e.value.python_class == "ValueError"


def test_an_output_cut_from_the_graph_must_be_constant():
    x = _x(1.0, 2.0)
    assert gradcheck(lambda a: a.detach() * 0, (x,))
    with pytest.raises(GradcheckError, match="Numerical gradient for function expected to be zero"):
        gradcheck(lambda a: a.detach() * 2, (x,))


def test_the_same_answers_and_message_as_pytorch(monkeypatch):
    torch = pytest.importorskip("torch")
    torch_error = importlib.import_module("torch.autograd.gradcheck").GradcheckError
    monkeypatch.setattr(Settings, "default_dtype", np.dtype(np.float32))
    cases = [
        (lambda a: a.sin(), [0.3, -1.2]),
        (lambda a: a * a.detach(), [1.0, 2.0]),  # the analytical gradient misses a branch
        (lambda a: (a * a).sum(), [0.5, 3.0, -1.0]),
    ]
    for f, v in cases:
        ours = gradcheck(f, (_x(*v),), raise_exception=False)
        theirs = torch.autograd.gradcheck(
            f, (torch.tensor(v, dtype=torch.float64, requires_grad=True),), raise_exception=False
        )
        assert ours == theirs
        if not theirs:
            with pytest.raises(GradcheckError) as e:
                gradcheck(f, (_x(*v),))
            with pytest.raises(torch_error) as t:
                torch.autograd.gradcheck(
                    f, (torch.tensor(v, dtype=torch.float64, requires_grad=True),)
                )
            assert e.value.message == str(t.value)


def test_steps_and_tolerances_as_pytorch_takes_them():
    x = _x(0.3, -1.2)
    assert gradcheck(lambda a: a.sin(), (x,), eps=-1e-6)  # the same central difference
    for eps in (0.0, float("inf"), float("nan")):  # PyTorch's numerical Jacobian is nan
        assert gradcheck(lambda a: a.sin(), (x,), eps=eps, raise_exception=False) is False
    with pytest.raises(Exception, match="argument 'atol' must be float, not str") as e:
        gradcheck(lambda a: a.sin(), (x,), atol="a")
    assert e.value.python_class == "TypeError"
