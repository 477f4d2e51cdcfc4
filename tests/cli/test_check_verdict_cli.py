"""`gradcli check` through the command line never says "ok" when two methods disagree beyond
the tolerance: custom backwards wrong on purpose by 0.01% to 90% in both of a program's forms
(a `f_backward` companion, a `torch.autograd.Function`), in every output format, exit 3 with
the culprit named; programs that change a leaf through `.data` check clean at the value the
graph used; `--against torch` without PyTorch is one clear error and nothing on stdout."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from gradcli.cli.main import app

COMPANION = textwrap.dedent("""
    import torch
    def f(x):
        return x * x
    def f_backward(x, grad):
        return grad * 2 * x * FACTOR
    x = torch.tensor([0.5, 1.0, -2.0], requires_grad=True)
    y = f(x).sin().sum()
""")

FUNCTION = textwrap.dedent("""
    import torch
    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x
        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return grad_output * 2 * x * FACTOR
    x = torch.tensor([[0.5, 1.0], [-2.0, 0.25]], requires_grad=True)
    y = Square.apply(x).tanh()
""")

# 0.01% is ten times the relative tolerance (1e-5); 90% both ways.
FACTORS = ["1.0001", "1.001", "1.01", "1.9", "0.1"]


def check(*args: str, env: dict[str, str] | None = None):
    return CliRunner(env={"COLUMNS": "100", **(env or {})}).invoke(app, ["check", *args])


def _verdict_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.lstrip().lower().startswith("ok")]


@pytest.mark.parametrize("factor", FACTORS)
@pytest.mark.parametrize(("program", "culprit"), [(COMPANION, "f"), (FUNCTION, "Square")])
def test_a_wrong_custom_backward_is_never_ok(program: str, culprit: str, factor: str) -> None:
    text = program.replace("FACTOR", factor)
    r = check("-e", text, "-f", "json")
    assert r.exit_code == 3, r.output
    doc = json.loads(r.stdout)
    assert doc["ok"] is False and doc["status"] == "disagree"
    (res,) = doc["results"]
    assert res["ok"] is False and res["culprits"] == [culprit]
    pairs = {tuple(c["methods"]): c for c in res["comparisons"]}
    # The engine (which runs the custom backward) against each independent method: disagree;
    # finite differences and sympy (which differentiate the forward): agree.
    assert not pairs[("engine", "numeric")]["ok"] and not pairs[("engine", "sympy")]["ok"]
    assert pairs[("numeric", "sympy")]["ok"]
    r = check("-e", text, "-f", "plain")
    assert r.exit_code == 3, r.output
    assert not _verdict_lines(r.stdout), r.stdout
    assert f"`{culprit}`" in r.stdout and "DISAGREE" in r.stdout


@pytest.mark.parametrize("program", [COMPANION, FUNCTION])
def test_the_same_programs_right_are_ok(program: str) -> None:
    r = check("-e", program.replace("FACTOR", "1.0"), "-f", "plain")
    assert r.exit_code == 0, r.output
    assert _verdict_lines(r.stdout) and "DISAGREE" not in r.stdout


def test_a_wrong_program_in_a_table_says_disagree() -> None:
    r = check("-e", FUNCTION.replace("FACTOR", "1.001"), "-f", "table")
    assert r.exit_code == 3, r.output
    assert "DISAGREE" in r.stdout and "all methods agree" not in r.stdout


@pytest.mark.parametrize(
    "changes",
    [
        "w.data = w.data * 3",
        "w.data = torch.tensor([0.5, -1., 2.])",
        "w.data -= 0.1 * torch.ones(3)",
        "w.data.mul_(-2)",
    ],
)
def test_a_leaf_changed_through_data_checks_clean(changes: str) -> None:
    text = (
        "import torch\nw = torch.tensor([1., 2., 3.], requires_grad=True)\n"
        f"{changes}\nloss = (w.sin() * w).sum()\n"
    )
    r = check("-e", text, "-f", "json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["ok"] is True
    assert all(c["ok"] for res in doc["results"] for c in res["comparisons"])


RANDOM = textwrap.dedent("""
    import torch
    torch.manual_seed(0)
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    W = torch.randn(2, 3)
    y = torch.tanh(W @ x)
""")


def test_random_constants_check_clean_without_torch() -> None:
    r = check("-e", RANDOM, "-f", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["ok"] is True


def test_against_torch_without_torch_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    for fmt in ("plain", "json", "table"):
        r = check("-e", RANDOM, "--against", "torch", "-f", fmt)
        assert r.exit_code == 1, r.output
        assert "needs PyTorch" in r.stderr
        assert "Traceback" not in r.stderr and "internal error" not in r.stderr
        assert not _verdict_lines(r.stdout) and '"ok": true' not in r.stdout


# --- derivatives far below the absolute tolerance ---------------------------------------------

TINY = COMPANION.replace("y = f(x).sin().sum()", "y = (f(x) * 1e-7).sum()")


@pytest.mark.parametrize("factor", ["1.01", "1.9", "0.1"])
def test_a_wrong_backward_on_tiny_derivatives_is_caught_by_finite_differences(
    factor: str,
) -> None:
    # All derivatives about 1e-7, below the absolute tolerance 1e-6: finite differences alone
    # (no sympy) must still catch a rule wrong by 1% or 90%.
    r = check("-e", TINY.replace("FACTOR", factor), "--no-sympy", "-f", "json")
    assert r.exit_code == 3, r.output
    assert json.loads(r.stdout)["results"][0]["culprits"] == ["f"]


@pytest.mark.parametrize(
    "program",
    [
        TINY.replace("FACTOR", "1.0"),
        # Derivatives that are exactly 0 where the central difference is h**2 (x**3 at 0),
        # also scaled up: nothing to take the tolerance relative to.
        "import torch\nx = torch.zeros(3, requires_grad=True)\ny = (x ** 3).sum()\n",
        "import torch\nx = torch.zeros(3, requires_grad=True)\ny = (1e4 * x ** 3).sum()\n",
        # Tiny derivatives at a point with a larger third derivative (x**3 near 0).
        "import torch\nx = torch.tensor([1e-4, -2e-4], requires_grad=True)\ny = (x**3).sum()\n",
        "import torch\nx = torch.tensor([3e-4, 0.5], requires_grad=True)\n"
        "y = (1e-6 * torch.tanh(x)).sum()\n",
    ],
)
def test_right_programs_with_tiny_derivatives_are_ok(program: str) -> None:
    for extra in ([], ["--no-sympy"]):
        r = check("-e", program, *extra, "-f", "json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["ok"] is True


# --- custom Functions whose forward and backward use einsum and torch.linalg -----------------

EINSUM_FUNCTION = textwrap.dedent("""
    import torch
    A = torch.tensor([[2.0, 0.5, 0.0], [0.5, 1.0, -0.3], [0.0, -0.3, 3.0]])
    class Quad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return torch.einsum('bi,ij,bj->b', x, A, x)
        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return torch.einsum('b,ij,bj->bi', grad_output, A + A.T, x) * FACTOR
    x = torch.tensor([[0.5, 1.0, -2.0], [0.1, -0.4, 0.7]], requires_grad=True)
    y = Quad.apply(x).tanh()
""")

LINALG_FUNCTION = textwrap.dedent("""
    import torch
    class LogDet(torch.autograd.Function):
        @staticmethod
        def forward(ctx, X):
            ctx.save_for_backward(X)
            return torch.logdet(X)
        @staticmethod
        def backward(ctx, grad_output):
            X, = ctx.saved_tensors
            return grad_output * torch.linalg.inv(X).mT * FACTOR
    x = torch.tensor([[2.0, 0.3, 0.1], [0.2, 1.5, -0.4], [0.0, 0.6, 3.0]], requires_grad=True)
    y = LogDet.apply(x @ x.T + torch.eye(3))
""")

NEW_OPS = [(EINSUM_FUNCTION, "Quad"), (LINALG_FUNCTION, "LogDet")]


@pytest.mark.parametrize("factor", FACTORS)
@pytest.mark.parametrize(("program", "culprit"), NEW_OPS)
def test_a_wrong_backward_written_with_einsum_or_linalg_is_caught(
    program: str, culprit: str, factor: str
) -> None:
    text = program.replace("FACTOR", factor)
    for extra in ([], ["--no-sympy"]):
        r = check("-e", text, *extra, "-f", "json")
        assert r.exit_code == 3, r.output
        doc = json.loads(r.stdout)
        assert doc["ok"] is False and doc["status"] == "disagree"
        (res,) = doc["results"]
        assert res["culprits"] == [culprit] and res["rules"] == []
        pairs = {tuple(c["methods"]): c for c in res["comparisons"]}
        assert not pairs[("engine", "numeric")]["ok"]
        if ("numeric", "sympy") in pairs:  # sympy differentiates the forward (when it can
            # within its time limit on a loaded machine): it sides with finite differences
            assert not pairs[("engine", "sympy")]["ok"] and pairs[("numeric", "sympy")]["ok"]
    r = check("-e", text, "-f", "plain")
    assert r.exit_code == 3 and not _verdict_lines(r.stdout), r.stdout
    assert f"`{culprit}`" in r.stdout and "DISAGREE" in r.stdout
    # jacobian --compare: the same verdict from the same rule.
    c = CliRunner(env={"COLUMNS": "100"}).invoke(app, ["jacobian", "-e", text, "--compare"])
    assert c.exit_code == 3, c.output


@pytest.mark.parametrize(("program", "culprit"), NEW_OPS)
def test_the_same_einsum_and_linalg_functions_right_are_ok(program: str, culprit: str) -> None:
    text = program.replace("FACTOR", "1.0")
    r = check("-e", text, "-f", "plain")
    assert r.exit_code == 0, r.output
    assert _verdict_lines(r.stdout) and "DISAGREE" not in r.stdout
    c = CliRunner(env={"COLUMNS": "100"}).invoke(app, ["jacobian", "-e", text, "--compare"])
    assert c.exit_code == 0, c.output
