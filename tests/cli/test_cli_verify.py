"""`gradcli check`, `gradcli symbolic` and `gradcli ops` through the command line."""

from __future__ import annotations

import glob
import json
import re
import textwrap

import pytest
from typer.testing import CliRunner

from gradcli.cli.main import app
from tests.helpers import ROOT

runner = CliRunner()
EXAMPLES = sorted(glob.glob("examples/*.py"))


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def _has_torch() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


WRONG = textwrap.dedent("""
    import torch
    def f(x):
        return x.exp() * x
    def f_backward(x, grad):
        return grad * x.exp()          # forgot the product rule
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    y = f(x).sum()
""")

SEED_FUNCTION = textwrap.dedent("""
    import torch
    class MyFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            # Forward pass implementation
            y = x.pow(2)
            ctx.save_for_backward(x)
            return y

        @staticmethod
        def backward(ctx, grad_output):
            # Backward pass implementation
            x, = ctx.saved_tensors
            grad_input = 2 * x * grad_output
            return grad_input

    my_function = MyFunction.apply
    x = torch.randn(2, 2, requires_grad=True)
    y = my_function(x)
    y.backward(torch.ones_like(y))
    print(x.grad)
""")


# --- check -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES)
def test_check_examples_exit_0(path):
    result = invoke("check", path, "-f", "json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["ok"] is True
    for r in obj["results"]:
        assert {"of", "wrt", "methods", "max_abs", "max_rel", "worst"} <= set(r)
        assert {"engine", "numeric", "sympy"} <= set(r["methods"])


def test_check_plain_and_table():
    result = invoke("check", "examples/mlp.py", "-f", "plain")
    assert result.exit_code == 0, result.output
    assert "engine vs numeric" in result.stdout
    assert "ok: all methods agree on 4 pairs" in result.stdout
    result = invoke("check", "examples/mlp.py", "-f", "table")
    assert result.exit_code == 0, result.output
    assert "DISAGREE" not in result.stdout


def test_check_wrong_custom_backward_exits_3_naming_f(tmp_path):
    p = tmp_path / "wrong.py"
    p.write_text(WRONG)
    result = invoke("check", str(p), "-f", "plain")
    assert result.exit_code == 3, result.output
    assert "`f`" in result.stdout
    assert re.search(r"d y / d x\[\d\]: engine", result.stdout)
    result = invoke("check", str(p), "-f", "json")
    assert result.exit_code == 3
    obj = json.loads(result.stdout)
    assert obj["ok"] is False
    r = obj["results"][0]
    assert r["culprits"] == ["f"]
    w = r["worst"]
    assert set(w) >= {"output", "input", "values"}
    assert set(w["values"]) >= {"engine", "numeric", "sympy"}


def test_check_wrong_function_class_from_stdin():
    prog = SEED_FUNCTION.replace("2 * x * grad_output", "2.5 * x * grad_output")
    result = invoke("check", "-", "-f", "plain", input=prog)
    assert result.exit_code == 3, result.output
    assert "`MyFunction`" in result.stdout


def test_the_seeds_function_snippet_runs_and_checks():
    result = invoke("run", "-e", SEED_FUNCTION)
    assert result.exit_code == 0, result.output
    assert "tensor(" in result.stdout
    result = invoke("check", "-e", SEED_FUNCTION, "-f", "json")
    assert result.exit_code == 0, result.output


def test_check_options():
    prog = "x = tensor([1., 2.], requires_grad=True)\nh = x * x\ny = h.sum()"
    result = invoke(
        "check",
        "-e",
        prog,
        "--of",
        "h",
        "--wrt",
        "x",
        "--eps",
        "1e-5",
        "--atol",
        "1e-7",
        "--rtol",
        "1e-6",
        "--no-sympy",
        "-f",
        "json",
    )
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["results"][0]["of"] == "h" and obj["eps"] == 1e-5
    assert "sympy" not in obj["results"][0]["methods"]
    result = invoke("check", "-e", prog, "--set", "x=3,4", "-f", "json")
    assert result.exit_code == 0, result.output


def test_check_usage_and_program_errors():
    prog = "x = tensor([1., 2.], requires_grad=True)\ny = x.sum()"
    assert invoke("check", "-e", prog, "--eps", "0").exit_code == 2
    assert invoke("check", "-e", prog, "--against", "jax").exit_code == 2
    result = invoke("check", "-e", prog, "--of", "nope")
    assert result.exit_code == 1
    assert "no tensor named" in result.output
    result = invoke("check", "-e", "x = tensor([1.])\ny = x * 2")
    assert result.exit_code == 1
    assert "Traceback" not in result.output


def test_check_float32_warns():
    result = invoke("check", "examples/seed_masks.py", "-f", "plain")
    assert result.exit_code == 0, result.output
    assert "float32" in result.stdout


@pytest.mark.skipif(not _has_torch(), reason="PyTorch is not installed")
def test_check_against_torch():
    result = invoke("check", "examples/softmax_classifier.py", "--against", "torch", "-f", "json")
    assert result.exit_code == 0, result.output
    assert "torch" in json.loads(result.stdout)["results"][0]["methods"]


def test_check_against_torch_without_torch(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "torch", None)
    result = invoke("check", "examples/mlp.py", "--against", "torch")
    assert result.exit_code == 1
    assert "needs PyTorch" in result.output


# --- symbolic --------------------------------------------------------------------------------


SQUARE = "x = tensor([1., 2.], requires_grad=True)\ny = x * x"


def test_symbolic_table_of_formulas():
    result = invoke("symbolic", "-e", SQUARE, "-f", "plain")
    assert result.exit_code == 0, result.output
    assert "d y[1] / d x[1] = 2*x_1" in result.stdout
    assert "d y[0] / d x[1]" not in result.stdout  # zeros hidden
    result = invoke("symbolic", "-e", SQUARE, "-f", "plain", "--zeros")
    assert "d y[0] / d x[1] = 0" in result.stdout


def test_symbolic_at_equals_the_engine():
    result = invoke("symbolic", "-e", SQUARE, "--at", "-f", "plain")
    assert result.exit_code == 0, result.output
    assert "d y[1] / d x[1] = 2*x_1  = 4  (engine 4) ok" in result.stdout
    result = invoke("symbolic", "examples/softmax_classifier.py", "--at", "-f", "json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    assert obj["ok"] is True
    assert all(e["agree"] for e in obj["wrt"]["W"]["entries"])


def test_symbolic_at_with_a_wrong_custom_backward_exits_3():
    result = invoke("symbolic", "-e", WRONG, "--at", "-f", "plain")
    assert result.exit_code == 3, result.output
    assert "DIFFERENT" in result.stdout


def test_symbolic_latex_and_gradient():
    prog = "x = tensor([1., 2.], requires_grad=True)\ny = (x ** 3).sum()"
    result = invoke("symbolic", "-e", prog, "--latex", "-f", "plain")
    assert result.exit_code == 0, result.output
    assert r"\frac{\partial y}{\partial x_{1}} = 3 x_{1}^{2}" in result.stdout
    assert r"\nabla_{x} y" in result.stdout
    result = invoke("symbolic", "-e", prog, "-f", "plain")
    assert "grad x = d y / d x = [3*x_0**2, 3*x_1**2]" in result.stdout
    result = invoke("symbolic", "-e", prog, "-f", "json")
    assert json.loads(result.stdout)["gradient"]["x"] == ["3*x_0**2", "3*x_1**2"]
    result = invoke("symbolic", "-e", prog, "-f", "table", "--at")
    assert result.exit_code == 0, result.output
    assert "3*x_1**2" in result.stdout


def test_symbolic_simplify_flag():
    prog = "x = tensor([1., 2.], requires_grad=True)\ny = (x.sin() ** 2 + x.cos() ** 2).sum()"
    simp = invoke("symbolic", "-e", prog, "-f", "json")
    raw = invoke("symbolic", "-e", prog, "-f", "json", "--no-simplify")
    assert simp.exit_code == 0 and raw.exit_code == 0, simp.output + raw.output
    assert json.loads(simp.stdout)["output"] == "2"
    assert json.loads(raw.stdout)["output"] != "2"


def test_symbolic_limit_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("GRADCLI_SYMPY_ELEMENTS", "10")
    result = invoke("symbolic", "-e", "x = torch.ones(50, requires_grad=True)\ny = x.sum()")
    assert result.exit_code == 1
    assert "over the limit" in result.output and "GRADCLI_SYMPY_ELEMENTS" in result.output


def test_symbolic_examples():
    # examples/wide.py is the large-matrix display example (a 36 x 40 Jacobian): 1,440
    # formulas are seconds of sympy, bounded by its limit, and show nothing more here.
    for path in [p for p in EXAMPLES if not p.endswith("wide.py")]:
        result = invoke("symbolic", path, "--at", "-f", "json", "--no-simplify")
        assert result.exit_code == 0, path + result.output


# --- ops -------------------------------------------------------------------------------------


def test_ops_lists_every_operation():
    from gradcli.ops import REGISTRY

    result = invoke("ops", "-f", "json")
    assert result.exit_code == 0, result.output
    obj = json.loads(result.stdout)
    listed = {o["op"] for o in obj["ops"]}
    reachable = {n for n, op in REGISTRY.items() if op.kind not in ("internal", "custom")}
    assert listed == reachable
    for name in ("sum", "relu", "+", "@", "x[...]", "nn.Sigmoid", "cross_entropy", "softmax"):
        assert name in obj["names"], name
    relu = next(o for o in obj["ops"] if o["op"] == "relu")
    assert "relu'(0) = 0" in relu["kink"]
    assert relu["derivative"]["d/dx"] == "Heaviside(x)"


def test_ops_every_user_name_reaches_a_record():
    from gradcli.analysis.catalog import NOT_DIFFERENTIABLE, user_names
    from gradcli.surface import names as functional

    names = user_names()
    for name, ops in names.items():
        assert ops, name
    differentiable_methods = {"exp", "sum", "matmul", "reshape", "softmax", "clamp", "where"}
    assert differentiable_methods <= set(names)
    assert not NOT_DIFFERENTIABLE & set(names)
    assert "zeros" not in names and "backward" not in names and "lt" not in names
    operators = {"+", "-", "*", "/", "//", "%", "**", "@", "-x", "abs(x)", "x[...]"}
    operators |= {".T", ".mT", ".H", ".mH", ".real", ".imag"}
    assert set(names) - operators - {n for n in names if n.startswith("nn.")} <= set(
        functional.FUNCTIONS
    ) | set(functional.METHODS) | set(functional.NN_FUNCTIONAL) | {
        f"linalg.{n}" for n in functional.LINALG
    } | {f"special.{n}" for n in functional.SPECIAL} | {f"fft.{n}" for n in functional.FFT}


def test_ops_names_come_from_the_declarations():
    """Each name on the row of the record it declares (not the one its code happens to reach
    first), compositions apart, and every declared name listed (addmm, the nn modules)."""
    obj = json.loads(invoke("ops", "-f", "json").stdout)
    rows = {o["op"]: o for o in obj["ops"]}
    assert "arctan2" in rows["atan2"]["names"] and "arctan2" not in rows["astype"]["also"]
    for name in ("flip", "median", "roll", "cross_entropy", "kron", "addmm", "nn.Linear"):
        assert name in obj["compositions"], name
        assert name not in rows["index"]["names"], name
    assert obj["names"]["addmm"][0] == "matmul"
    assert "nn.Hardswish" in rows["hardswish"]["names"]
    assert "nn.Conv2d" in rows["conv"]["names"]
    for name in ("long", "argmax", "zeros", "lt"):
        assert name not in obj["names"], name


def test_ops_one_name():
    result = invoke("ops", "relu")
    assert result.exit_code == 0, result.output
    assert "relu'(0) = 0" in result.stdout and "Heaviside(x)" in result.stdout
    result = invoke("ops", "max")
    assert result.exit_code == 0 and "ties" in result.stdout
    result = invoke("ops", "clamp", "-f", "json")
    assert json.loads(result.stdout)["ops"][0]["kink"].startswith("clamp passes")
    result = invoke("ops", "relux")
    assert result.exit_code == 1
    assert "did you mean" in result.output


def test_ops_plain_and_table():
    for fmt in ("plain", "table"):
        result = invoke("ops", "-f", fmt)
        assert result.exit_code == 0, result.output
        assert "exp(x)" in result.stdout


def test_readme_operation_list_equals_the_registry():
    from gradcli.cli.render.verify import OPS_END, OPS_START, markdown_names, ops_markdown

    readme = ROOT / "README.md"
    text = readme.read_text() if readme.exists() else ""
    if OPS_START not in text or OPS_END not in text:
        pytest.skip(
            "README.md has no operation list between <!-- ops:start --> and "
            "<!-- ops:end --> yet (paste gradcli.render_verify.ops_markdown())"
        )
    section = text[text.index(OPS_START) : text.index(OPS_END) + len(OPS_END)]
    result = invoke("ops", "-f", "json")
    assert result.exit_code == 0, result.output
    listed = set(json.loads(result.stdout)["names"])
    in_readme = markdown_names(section)
    assert in_readme == listed, (
        f"README lists {sorted(in_readme - listed)} that gradcli ops does not, and misses "
        f"{sorted(listed - in_readme)}; regenerate it with gradcli.render_verify.ops_markdown()"
    )
    assert markdown_names(ops_markdown()) == listed


def test_ops_markdown_round_trips():
    from gradcli.analysis.catalog import user_names
    from gradcli.cli.render.verify import OPS_END, OPS_START, markdown_names, ops_markdown

    md = ops_markdown()
    assert md.startswith(OPS_START) and md.endswith(OPS_END)
    assert markdown_names(md) == set(user_names())


def test_check_catches_the_broken_example() -> None:
    result = invoke("check", "examples/broken/wrong_custom_backward.py", "-f", "plain")
    assert result.exit_code == 3, result.output
    assert "custom gradient of `cube` is wrong" in result.stdout + result.stderr
