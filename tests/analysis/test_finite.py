"""NaN/Inf provenance: the first operation that made a non-finite value from finite ones, in
the forward or the backward pass, with its values and its line; the where-over-sqrt pattern
explained with the double-where fix; --strict-finite exits 1."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.analysis import api
from gradcli.analysis.finite import backward_finding, findings, forward_finding
from gradcli.cli.main import app

WHERE = """\
x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
y = torch.where(x > 0, torch.sqrt(x), 0.0)
z = y.sum()
"""


def _cli(*args: str, code: int = 0):
    r = CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"}).invoke(app, list(args))
    assert r.exit_code == code, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    return r


def _names(r) -> dict[int, str]:
    return {id(t): n for n, t in r.tensors.items()}


def test_the_masked_branch_of_where_is_found_and_explained() -> None:
    r = api.run(WHERE)
    f = backward_finding(r.tensors["z"], np.array(1.0), _names(r), r.node_line)
    assert f is not None and f.phase == "backward" and f.op == "sqrt"
    assert f.line == "<program>:2:1" and f.index == "[0]"
    assert "`x[0]` is 0" in f.detail and "0 * inf = nan" in f.detail
    assert "torch.where" in f.why and "torch.sqrt(torch.where(cond, x, 1.0))" in f.fix
    # The gradient itself is PyTorch's: nan where the masked branch is at 0.
    g = api.backward(r, "z").grads["x"]
    assert np.isnan(g[0]) and np.allclose(g[1:], [0.5, 0.25])


def test_the_double_where_fix_is_finite_and_strict_finite_passes() -> None:
    fixed = WHERE.replace("torch.sqrt(x)", "torch.sqrt(torch.where(x > 0, x, 1.0))")
    r = _cli("backward", "-e", fixed, "--strict-finite", "--format", "json")
    assert json.loads(r.stdout)["grads"]["x"] == [0.0, 0.5, 0.25]
    assert "non-finite" not in r.stderr


def test_strict_finite_writes_the_result_then_exits_1() -> None:
    r = _cli("backward", "-e", WHERE, "--strict-finite", "--format", "json", code=1)
    assert json.loads(r.stdout)["grads"]["x"][0] == "nan"
    assert "the first non-finite value: the backward of `sqrt` (SqrtBackward0) at <-e>:2:1" in (
        r.stderr
    )
    assert "fix: " in r.stderr
    # Without --strict-finite: the same warning, status 0.
    assert "the backward of `sqrt`" in _cli("backward", "-e", WHERE).stderr


def test_forward_log_of_zero_inside_a_function_names_its_line() -> None:
    src = (
        "x = torch.tensor([0.0, 1.0], requires_grad=True)\n"
        "def f(v):\n    return torch.log(v * 2)\n"
        "a = x * 3\ny = f(a) + 1\nz = y.sum()\n"
    )
    r = api.run(src)
    f = forward_finding(r.tensors["z"], _names(r), r.node_line)
    assert (f.op, f.line, f.detail, f.index) == ("log", "<program>:3:5", "log(0) = -inf", "[0]")
    # The node recorded after the call returned belongs to the calling line again.
    add = r.tensors["y"].node
    assert r.node_line(add) == "<program>:5:1"
    out = _cli("forward", "-e", src, "--of", "z", "--strict-finite", code=1)
    assert "`log` (LogBackward0) at <-e>:3:5: log(0) = -inf (element [0])" in out.stderr


@pytest.mark.parametrize(
    "body, detail",
    [
        ("y = (x - 1) / (x - 1)", "0 / 0 = nan"),
        ("y = torch.exp(x * 1000)", "exp(1000) = inf"),
        ("y = x ** -1.0", "0 ** -1 = inf"),
    ],
)
def test_forward_details(body: str, detail: str) -> None:
    r = api.run(f"x = torch.tensor([1.0, 0.0], requires_grad=True)\n{body}\n")
    f = findings(r.tensors["y"], None, _names(r), [r.tensors["y"].data], r.node_line)
    assert f and detail in f[0].detail and f[0].line == "<program>:2:1", f


def test_a_leaf_that_holds_inf() -> None:
    r = api.run("x = torch.tensor([1.0, float('inf')], requires_grad=True)\ny = x * 2\n")
    f = forward_finding(r.tensors["y"], _names(r))
    assert f.result == "`x`" and f.index == "[1]" and "holds inf" in f.detail


def test_finite_programs_say_nothing() -> None:
    r = api.run("x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x.sqrt() * x).sum()\n")
    assert findings(r.tensors["y"], np.array(1.0), _names(r), [r.tensors["y"].data]) == []
    assert (
        "first non-finite"
        not in _cli(
            "backward",
            "-e",
            "x = torch.ones(2, requires_grad=True)\ny = x.sum()",
            "--strict-finite",
        ).stderr
    )


def test_a_jacobian_explains_its_first_bad_row() -> None:
    r = _cli(
        "jacobian",
        "-e",
        WHERE.replace("z = y.sum()\n", ""),
        "--strict-finite",
        "--format",
        "plain",
        code=1,
    )
    assert r.stdout.splitlines()[0].startswith("nan")
    assert "the backward of `sqrt`" in r.stderr and "second where" in r.stderr


def test_against_pytorch() -> None:
    torch = pytest.importorskip("torch")
    x = torch.tensor([0.0, 1.0, 4.0], requires_grad=True)
    torch.where(x > 0, torch.sqrt(x), 0.0).sum().backward()
    assert torch.isnan(x.grad[0]) and x.grad[1:].tolist() == [0.5, 0.25]
