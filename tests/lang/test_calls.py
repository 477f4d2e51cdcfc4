"""The boundary between the program's errors and gradcli's own (`lang.calls`): a Python error
raised on a program's value where gradcli interprets it is the program's (exit 1); a bug
below the surface, or an error of calling, is gradcli's (exit 70 through the CLI, the original
exception through the library)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from gradcli.analysis import api
from gradcli.cli.main import app
from tests.helpers.cli import run_cli as _run_cli


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


BACKWARD_PROGRAM = "x = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()"


@pytest.mark.parametrize(
    "program, message",
    [
        # Python's own errors on a program's value, where the surface interprets it.
        ("x = torch.zeros(2, dtype=5)", "zeros(): argument 'dtype' must be torch.dtype, not int"),
        (
            "x = torch.ones(2)\ny = x.clamp(min='a')",
            "clamp() received an invalid combination of arguments - got (min=str, )",
        ),
        ("n = torch.numel(5)", "numel(): argument 'input' (position 1) must be Tensor, not int"),
        # A call that does not fit: the program's call, bound to the signature...
        (
            "x = torch.ones(2)\ny = torch.exp(x, x)",
            "exp() takes 1 positional argument but 2 were given",
        ),
        # torch.tensor takes its options by keyword only (its parser's words)
        (
            "x = torch.tensor([1.0, 2.0], torch.float64)",
            "tensor() takes 1 positional argument but 2 were given",
        ),
        (
            "x = torch.tensor(5.0, 4.0, 3.0)",
            "tensor() takes 1 positional argument but 3 were given",
        ),
        # ... or a module's inputs, which it passes on to the function it wraps.
        (
            "x = torch.ones(2)\ny = torch.nn.Tanh()(x, x)",
            "Tanh.forward() takes 2 positional arguments but 3 were given",
        ),
    ],
)
def test_argument_errors_are_the_programs(runner: CliRunner, program: str, message: str) -> None:
    r = runner.invoke(app, ["run", "-e", program])
    assert r.exit_code == 1, r.stderr
    assert message in r.stderr
    assert "internal error" not in r.stderr


def test_a_bug_below_the_surface_is_an_internal_error() -> None:
    """A Python error from the kernel (here its backward pass) is gradcli's, whatever type."""
    patch = (
        "import gradcli.core.autograd as ag\n"
        "def broken(*a, **k):\n    return {}['missing']\n"
        "ag.unbroadcast = broken"
    )
    r = _run_cli(["run", "-e", BACKWARD_PROGRAM], patch)
    assert r.returncode == 70, r.stderr
    assert "internal error, please report: KeyError: 'missing'" in r.stderr
    assert "to reproduce: gradcli --debug run -e" in r.stderr


def test_a_call_error_inside_the_surface_is_an_internal_error() -> None:
    """The program's call was bound to the signature: a call that then does not fit, even in
    the layers that interpret arguments, is gradcli's own bug."""
    patch = "import gradcli.surface.functional as F\nF.reduction_dims = None"
    r = _run_cli(["run", "-e", "x = torch.ones(2)\ny = x.sum(dim=0)"], patch)
    assert r.returncode == 70, r.stderr
    assert "internal error, please report: TypeError: 'NoneType' object is not callable" in (
        r.stderr
    )


def test_the_library_lets_a_kernel_bug_through(monkeypatch: pytest.MonkeyPatch) -> None:
    import gradcli.core.autograd as ag

    def broken(*a: object, **k: object) -> None:
        raise KeyError("missing")

    monkeypatch.setattr(ag, "unbroadcast", broken)
    with pytest.raises(KeyError, match="missing"):
        api.load(BACKWARD_PROGRAM)


def test_the_interpreter_has_the_run_budget_watch_the_kernel() -> None:
    from gradcli.base import limits
    from gradcli.core import hooks
    from gradcli.lang import runtime  # noqa: F401 - installs the budget

    assert hooks.observer is limits.BUDGET


def test_a_bound_methods_fit_is_checked_by_its_function() -> None:
    # A bound method is a new object at every access: the check of its call is kept by its
    # function (not redone each step), and a later call that does not fit is still refused.
    from gradcli.base.errors import GradcliError

    text = (
        "m = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
        "for i in range(3):\n    opt.zero_grad()\n    opt.step()\n"
    )
    api.load(text)
    with pytest.raises(
        GradcliError, match=r"SGD.step\(\) takes from 1 to 2 positional arguments but 3 were"
    ):  # (PyTorch's words: SGD defines its step)
        api.load(text + "opt.step(1, 2)\n")


@pytest.mark.parametrize(
    "expr, want",
    [
        ("torch.zeros(2, dtype=float).dtype", "torch.float64"),
        ("torch.ones(2, dtype=int).dtype", "torch.int64"),
        ("torch.ones(2, dtype=bool).dtype", "torch.bool"),
        ("torch.arange(3, dtype=float).dtype", "torch.float64"),
        ("torch.tensor([1.5]).to(int)", "tensor([1])"),
        ("torch.tensor([1, 0]).to(dtype=bool)", "tensor([ True, False])"),
        ("torch.ones(2).sum(dtype=float).dtype", "torch.float64"),
        ("torch.eye(2, dtype=float).dtype", "torch.float64"),
    ],
)
def test_pythons_types_are_dtypes(runner: CliRunner, expr: str, want: str) -> None:
    """PyTorch reads a program's `float`, `int` and `bool` given as a dtype as torch.float64,
    torch.int64 and torch.bool; any other object is refused in its words (a TypeError)."""
    r = runner.invoke(app, ["run", "-e", f"print({expr})"])
    assert r.exit_code == 0, r.stderr
    assert r.stdout.strip() == want


def test_other_types_are_not_dtypes(runner: CliRunner) -> None:
    program = "try:\n    torch.zeros(2, dtype=str)\nexcept TypeError as e:\n    print(e)"
    r = runner.invoke(app, ["run", "-e", program])
    assert r.exit_code == 0, r.stderr
    assert r.stdout.strip() == "zeros(): argument 'dtype' must be torch.dtype, not type"
