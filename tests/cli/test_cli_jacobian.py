"""`gradcli jacobian`, `hessian` and `hvp` through typer's CliRunner: every format and option,
PyTorch parity through the JSON, and every error path (one message on stderr, exit 1 for the
program or its inputs, 2 for the command line, never a traceback)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.cli.main import app

PROG = """\
import torch
x = torch.tensor([[1., 2., 3., 4.], [0.5, -1., 2., 0.]], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0, 1.5], requires_grad=True)
u = torch.tensor([3.0], requires_grad=True)
y = torch.tanh(x * w).sum(dim=1) * torch.tensor([1., -2.])
loss = (y ** 2).sum()
"""

# Not in the repository: checked against PyTorch through the JSON.
TORCH_PROG = """\
a = torch.tensor([[0.2, -0.4, 1.1], [0.7, 0.3, -0.9]], requires_grad=True)
v = torch.tensor([0.5, -1.5, 0.25], requires_grad=True)
s = torch.sigmoid(a @ v)
m = torch.stack([s.prod(), (a * a).mean(), torch.log_softmax(a, dim=0)[1, 2]])
out = torch.cat([m, s * v[:2]])
total = (out * out).sum() + torch.exp(v).sum() * s[0]
"""


def torch_fn(a, v):
    import torch

    s = torch.sigmoid(a @ v)
    m = torch.stack([s.prod(), (a * a).mean(), torch.log_softmax(a, dim=0)[1, 2]])
    out = torch.cat([m, s * v[:2]])
    total = (out * out).sum() + torch.exp(v).sum() * s[0]
    return out, total


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "120", "NO_COLOR": "1", "GRADCLI_JACOBIAN_ENTRIES": None})


@pytest.fixture
def prog(tmp_path: Path) -> str:
    p = tmp_path / "prog.py"
    p.write_text(PROG)
    return str(p)


def ok(runner: CliRunner, *args: str, input: str | None = None) -> tuple[str, str]:
    result = runner.invoke(app, list(args), input=input)
    assert result.exit_code == 0, result.output + result.stderr
    return result.stdout, result.stderr


def fails(runner: CliRunner, *args: str, code: int = 1) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stdout == ""
    return result.stderr


def jac_json(runner: CliRunner, *args: str) -> dict:
    out, _ = ok(runner, "jacobian", *args, "--format", "json")
    return json.loads(out)


# --- JSON: keys, layout, PyTorch ------------------------------------------------------------


def test_jacobian_json_keys_and_layout(runner: CliRunner, prog: str) -> None:
    obj = jac_json(runner, prog, "--of", "y", "--wrt", "x", "--wrt", "w", "--wrt", "u")
    assert set(obj) == {"of", "of_shape", "method", "passes", "jacobians", "unused"}
    assert (obj["of"], obj["of_shape"], obj["method"], obj["passes"]) == ("y", [2], "rows", 2)
    assert list(obj["jacobians"]) == ["x", "w", "u"]
    jx = obj["jacobians"]["x"]
    assert set(jx) == {"wrt_shape", "matrix"} and jx["wrt_shape"] == [2, 4]
    mat = np.array(jx["matrix"])
    assert mat.shape == (2, 8)
    # J[i, j] = d y_i / d x_j: y[0] depends on the first row of x only.
    assert not np.any(mat[0, 4:]) and not np.any(mat[1, :4])
    x = np.array([[1.0, 2, 3, 4], [0.5, -1, 2, 0]])
    w = np.array([0.5, -1, 2, 1.5])
    np.testing.assert_allclose(mat[0, :4], w * (1 - np.tanh(x[0] * w) ** 2), rtol=1e-12)
    assert obj["unused"] == ["u"] and not np.any(obj["jacobians"]["u"]["matrix"])


@pytest.mark.parametrize("method", ["rows", "batched", "forward", "numeric", "auto"])
def test_jacobian_matches_torch_through_json(
    runner: CliRunner, tmp_path: Path, method: str
) -> None:
    torch = pytest.importorskip("torch", exc_type=ImportError)
    p = tmp_path / "t.py"
    p.write_text(TORCH_PROG)
    obj = jac_json(runner, str(p), "--of", "out", "--wrt", "a", "--wrt", "v", "--method", method)
    a = torch.tensor([[0.2, -0.4, 1.1], [0.7, 0.3, -0.9]], dtype=torch.float64)
    v = torch.tensor([0.5, -1.5, 0.25], dtype=torch.float64)
    want = torch.autograd.functional.jacobian(lambda a, v: torch_fn(a, v)[0], (a, v))
    tol = 1e-9 if method != "numeric" else 1e-7
    for name, w in zip(["a", "v"], want):
        got = np.array(obj["jacobians"][name]["matrix"])
        np.testing.assert_allclose(got, w.numpy().reshape(got.shape), rtol=tol, atol=tol)
        assert obj["jacobians"][name]["wrt_shape"] == list(w.shape[1:])
    assert obj["of_shape"] == [5]


@pytest.mark.parametrize("method", ["batched", "rows"])
def test_hessian_matches_torch_through_json(runner: CliRunner, tmp_path: Path, method: str) -> None:
    torch = pytest.importorskip("torch", exc_type=ImportError)
    p = tmp_path / "t.py"
    p.write_text(TORCH_PROG)
    out, _ = ok(
        runner,
        "hessian",
        str(p),
        "--of",
        "total",
        "--wrt",
        "a",
        "--wrt",
        "v",
        "--method",
        method,
        "--format",
        "json",
    )
    obj = json.loads(out)
    assert set(obj) >= {"of", "of_shape", "method", "passes", "hessians", "asymmetry"}
    assert obj["of"] == "total" and obj["of_shape"] == []
    a = torch.tensor([[0.2, -0.4, 1.1], [0.7, 0.3, -0.9]], dtype=torch.float64)
    v = torch.tensor([0.5, -1.5, 0.25], dtype=torch.float64)
    want = torch.autograd.functional.hessian(lambda a, v: torch_fn(a, v)[1], (a, v))
    np.testing.assert_allclose(
        np.array(obj["hessians"]["a"]["matrix"]),
        want[0][0].numpy().reshape(6, 6),
        rtol=1e-9,
        atol=1e-12,
    )
    np.testing.assert_allclose(
        np.array(obj["hessians"]["v"]["matrix"]), want[1][1].numpy(), rtol=1e-9, atol=1e-12
    )
    np.testing.assert_allclose(
        np.array(obj["cross"]["a,v"]["matrix"]),
        want[0][1].numpy().reshape(6, 3),
        rtol=1e-9,
        atol=1e-12,
    )
    assert obj["hessians"]["a"]["wrt_shape"] == [2, 3]
    assert obj["asymmetry"] < 1e-12


def test_hvp_json_and_plain(runner: CliRunner, prog: str) -> None:
    out, _ = ok(
        runner, "hvp", prog, "--of", "loss", "--wrt", "w", "--v", "1,0,0,0", "--format", "json"
    )
    obj = json.loads(out)
    h, _ = ok(runner, "hessian", prog, "--of", "loss", "--wrt", "w", "--format", "json")
    col = np.array(json.loads(h)["hessians"]["w"]["matrix"])[:, 0]
    np.testing.assert_allclose(obj["hvp"]["w"], col, rtol=1e-12)
    assert obj["passes"] == 2 and obj["shapes"] == {"w": [4]}
    plain, _ = ok(runner, "hvp", prog, "--of", "loss", "--wrt", "w", "--v", "onehot:0")
    np.testing.assert_allclose([float(t) for t in plain.split()], col, rtol=1e-12)
    two, _ = ok(runner, "hvp", prog, "--of", "loss", "--wrt", "w", "--wrt", "u", "--v", "1,0,0,0,1")
    assert two.startswith("# w [4]\n") and "# u [1]" in two


# --- formats ----------------------------------------------------------------------------------


def test_plain_is_the_matrix_and_blocks_have_headers(runner: CliRunner, prog: str) -> None:
    out, err = ok(runner, "jacobian", prog, "--of", "y", "--wrt", "w")
    rows = [line.split() for line in out.splitlines()]
    assert len(rows) == 2 and all(len(r) == 4 for r in rows)
    out, err = ok(runner, "jacobian", prog, "--of", "y", "--wrt", "w", "--wrt", "u")
    assert out.startswith("# w [4]\n") and "\n\n# u [1]\n0\n0\n" in out
    assert "`y` does not depend on `u`" in err


def test_table_labels_rows_and_columns(runner: CliRunner, prog: str) -> None:
    out, _ = ok(runner, "jacobian", prog, "--of", "y", "--wrt", "x", "--format", "table")
    assert "y[0]" in out and "y[1]" in out and "x[0,3]" in out and "x[1,0]" in out
    assert "method rows" in out and "2 backward passes" in out
    assert "J[i, j] = d y_i / d x_j" in out


def test_table_elides_a_large_matrix_and_heat_draws_it(runner: CliRunner) -> None:
    expr = "x = torch.linspace(-1, 1, 40).requires_grad_()\ny = torch.outer(x, x).sum(0)\n"
    out, _ = ok(runner, "jacobian", "-e", expr, "--format", "table")
    assert "…" in out and "y[39]" in out and "x[39]" in out
    assert "showing 14 of 40 columns, 24 of 40 rows" in out  # at 100 columns
    heat, _ = ok(runner, "jacobian", "-e", expr, "--format", "table", "--heat")
    assert "blue < 0 < red" not in heat and "heat" not in heat.split("\n")[0]
    assert "@" in heat and "#" in heat  # no colour (NO_COLOR): the sign-aware ramp
    plain, _ = ok(runner, "jacobian", "-e", expr, "--heat")
    lines = plain.splitlines()
    assert lines[0] == "# dy/dx [40]" and lines[1].startswith("heat: ")
    assert len(lines) == 2 + 40 and all(len(line) == 80 for line in lines[2:])


def test_csv(runner: CliRunner, prog: str) -> None:
    out, _ = ok(
        runner, "jacobian", prog, "--of", "y", "--wrt", "w", "--wrt", "u", "--format", "csv"
    )
    lines = out.splitlines()
    assert lines[0] == ",w[0],w[1],w[2],w[3],u[0]"
    assert lines[1].startswith("y[0],") and len(lines) == 3
    h, _ = ok(runner, "hessian", prog, "--of", "loss", "--wrt", "u", "--wrt", "w", "-f", "csv")
    assert h.splitlines()[0] == ",u[0],w[0],w[1],w[2],w[3]"


def test_npy_and_npz(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    one = tmp_path / "j.npy"
    ok(runner, "jacobian", prog, "--of", "y", "--wrt", "x", "--format", "npy", "--output", str(one))
    assert np.load(one).shape == (2, 2, 4)  # the array form: of.shape + wrt.shape
    both = tmp_path / "both.npy"
    ok(runner, "jacobian", prog, "--of", "y", "--wrt", "x", "--wrt", "w", "-o", str(both))
    assert np.load(both).shape == (2, 12)  # several blocks: the 2-D matrix, side by side
    npz = tmp_path / "blocks.npz"
    ok(runner, "jacobian", prog, "--of", "y", "--wrt", "x", "--wrt", "w", "-o", str(npz))
    with np.load(npz) as z:
        assert z["x"].shape == (2, 2, 4) and z["w"].shape == (2, 4)
    h = tmp_path / "h.npz"
    ok(runner, "hessian", prog, "--of", "loss", "--wrt", "w", "--wrt", "u", "-o", str(h))
    with np.load(h) as z:
        assert set(z.files) == {"w", "u", "w,u", "u,w"} and z["w,u"].shape == (4, 1)
    # Piped: the .npy bytes on standard output.
    result = CliRunner().invoke(app, ["jacobian", prog, "--of", "y", "--wrt", "w", "-f", "npy"])
    assert result.exit_code == 0
    assert np.load(io.BytesIO(result.stdout_bytes)).shape == (2, 4)


def test_output_file_and_suffix_picks_the_format(
    runner: CliRunner, prog: str, tmp_path: Path
) -> None:
    out = tmp_path / "j.json"
    stdout, _ = ok(runner, "jacobian", prog, "--of", "y", "--wrt", "w", "-o", str(out))
    assert stdout == "" and json.loads(out.read_text())["of"] == "y"
    csv = tmp_path / "j.csv"
    ok(runner, "jacobian", prog, "--of", "y", "--wrt", "w", "-o", str(csv))
    assert csv.read_text().startswith(",w[0]")
    txt = tmp_path / "j.txt"
    ok(runner, "jacobian", prog, "--of", "y", "--wrt", "w", "-o", str(txt), "--precision", "3")
    assert len(txt.read_text().split()) == 8


def test_precision(runner: CliRunner, prog: str) -> None:
    """--precision is PyTorch's: digits after the decimal point (of the mantissa in
    scientific notation), the same for every number of the matrix."""
    import re

    out, _ = ok(runner, "jacobian", prog, "--of", "y", "--wrt", "w", "--precision", "3")
    tokens = out.split()
    assert all(re.fullmatch(r"-?\d\.\d{3}(e[+-]\d+)?|0", t) for t in tokens), tokens
    full, _ = ok(runner, "jacobian", prog, "--of", "y", "--wrt", "w")
    exact = [float(t) for t in full.split()]
    for t, v in zip(tokens, exact):  # each shown number is the true value, rounded
        mant = t.split("e")
        scale = 10.0 ** int(mant[1]) if len(mant) == 2 else 1.0
        assert abs(float(t) - v) <= 0.5e-3 * scale * (1 + 1e-9)


# --- options ----------------------------------------------------------------------------------


def test_show_masks_plain_and_json(runner: CliRunner) -> None:
    out, _ = ok(
        runner, "jacobian", "examples/seed_masks.py", "--of", "z", "--wrt", "x", "--show-masks"
    )
    assert "# pass 1: upstream gradient = one-hot mask at z[0,0]\n1 0 0 0\n" in out
    assert "# -> row z[0,3] of dz/dx (the gradient of z[0,3])\n0 0 0 2\n" in out
    assert out.endswith("# the Jacobian\n2 0 0 0\n0 2 0 0\n0 0 2 0\n0 0 0 2\n")
    obj = jac_json(runner, "examples/seed_masks.py", "--of", "z", "--wrt", "x", "--show-masks")
    assert obj["masks"][1] == {
        "index": [0, 1],
        "mask": [[0.0, 1.0, 0.0, 0.0]],
        "rows": {"x": [[0.0, 2.0, 0.0, 0.0]]},
    }
    table, _ = ok(
        runner,
        "jacobian",
        "examples/seed_masks.py",
        "--of",
        "z",
        "--wrt",
        "x",
        "--show-masks",
        "--method",
        "batched",
        "-f",
        "table",
    )
    assert "[0 0 1 0]" in table and "row of dz/dx" in table


def test_compare(runner: CliRunner, prog: str) -> None:
    out, _ = ok(runner, "jacobian", prog, "--of", "y", "--compare")
    lines = out.splitlines()
    assert lines[1] == "method passes seconds max_abs_diff max_rel_diff"
    assert [line.split()[0] for line in lines[2:6]] == ["rows", "batched", "forward", "numeric"]
    largest = float(lines[-1].rsplit(" ", 1)[1])
    assert 0 < largest < 1e-7
    obj = json.loads(
        ok(runner, "jacobian", prog, "--of", "y", "--compare", "-m", "batched", "-f", "json")[0]
    )
    assert obj["reference"] == "batched" and set(obj["methods"]) == {
        "rows",
        "batched",
        "forward",
        "numeric",
    }
    assert obj["methods"]["batched"]["max_abs_diff"] == 0
    assert obj["largest_difference"] == pytest.approx(largest, rel=1e-2)
    table, _ = ok(runner, "jacobian", prog, "--of", "y", "--compare", "-f", "table")
    assert "largest difference between any two methods" in table


def test_auto_says_what_it_chose(runner: CliRunner, prog: str) -> None:
    _, err = ok(runner, "jacobian", prog, "--of", "y", "--wrt", "u", "--method", "auto")
    assert "auto chose forward: 1 input element < 2 output elements" in err
    obj = jac_json(runner, prog, "--of", "y", "--wrt", "x", "--method", "auto")
    assert obj["method"] == "batched" and obj["passes"] == 1 and "auto chose" in obj["note"]


def test_set_seed_dtype_and_inline(runner: CliRunner, prog: str) -> None:
    obj = jac_json(runner, prog, "--of", "y", "--wrt", "u", "--set", "w=0,0,0,0")
    assert obj["jacobians"]["u"]["matrix"] == [[0.0], [0.0]]
    e = "x = torch.randn(3, requires_grad=True)\ny = x * x"
    a = jac_json(runner, "-e", e, "--seed", "1")
    b = jac_json(runner, "-e", e, "--seed", "2")
    assert a["jacobians"]["x"]["matrix"] != b["jacobians"]["x"]["matrix"]
    f32 = jac_json(
        runner,
        "-e",
        "x = torch.tensor([0.1, 0.2], requires_grad=True)\ny = x.exp()",
        "--dtype",
        "float32",
    )
    assert f32["jacobians"]["x"]["matrix"][0][0] == pytest.approx(np.exp(0.1), rel=1e-6)
    out, _ = ok(runner, "jacobian", "-", "--of", "y", "--wrt", "u", input=PROG)
    assert len(out.split()) == 2


def test_hessian_table_reports_symmetry(runner: CliRunner, prog: str) -> None:
    out, _ = ok(runner, "hessian", prog, "--of", "loss", "--wrt", "w", "--wrt", "u", "-f", "table")
    assert "d2loss/d(w, u)^2   5 x 5" in out and "w[3]" in out and "u[0]" in out
    assert "max |H - H^T|" in out and "`loss` does not depend on `u`" in out
    blocks, _ = ok(
        runner,
        "hessian",
        prog,
        "--of",
        "loss",
        "--wrt",
        "w",
        "--wrt",
        "u",
        "-f",
        "table",
        "--blocks",
    )
    assert "d2loss/dw dw" in blocks and "d2loss/dw du" in blocks
    assert "loss does not depend on u: zero block" in blocks
    heat, _ = ok(runner, "hessian", prog, "--of", "loss", "--wrt", "w", "--heat")
    assert heat.startswith("# d2loss/d(w)^2\nheat: ")
    plain, _ = ok(runner, "hessian", prog, "--of", "loss", "--wrt", "w")
    assert [len(line.split()) for line in plain.splitlines()] == [4, 4, 4, 4]


def test_hessian_plain_blocks_and_unused(runner: CliRunner) -> None:
    e = (
        "a = tensor([1., 2.], requires_grad=True)\nc = tensor([1.], requires_grad=True)\n"
        "y = (a ** 3).sum()"
    )
    out, err = ok(runner, "hessian", "-e", e, "--wrt", "a", "--wrt", "c")
    assert out == "6 0 0\n0 12 0\n0 0 0\n"  # the assembled matrix: a[0], a[1], c[0]
    assert "`y` does not depend on `c`" in err
    out, err = ok(runner, "hessian", "-e", e, "--wrt", "a", "--wrt", "c", "--blocks")
    assert out.startswith("# a, a [2] x [2]\n6 0\n0 12\n\n# a, c [2] x [1]\n0\n0\n")
    assert out.endswith("# c, c [1] x [1]\n0\n")
    num, _ = ok(runner, "hessian", "-e", e, "--wrt", "a", "-m", "numeric", "--precision", "4")
    np.testing.assert_allclose(
        [[float(t) for t in line.split()] for line in num.splitlines()],
        [[6, 0], [0, 12]],
        atol=1e-4,
    )
    hv, _ = ok(runner, "hvp", "-e", e, "--wrt", "a", "--v", "[1, 1]", "-f", "table")
    assert "(H v) for a" in hv


# --- errors ------------------------------------------------------------------------------------


def test_errors_in_the_program_or_inputs_exit_1(runner: CliRunner, prog: str) -> None:
    err = fails(runner, "hessian", prog, "--of", "y")
    assert "grad can be implicitly created only for scalar outputs" in err
    assert "found: `y` has shape [2]" in err
    err = fails(runner, "hvp", prog, "--of", "y", "--wrt", "w", "--v", "ones")
    assert "only for scalar outputs" in err
    assert "no tensor named `yy`" in fails(runner, "jacobian", prog, "--of", "yy")
    assert "did you mean `w`" in fails(runner, "jacobian", prog, "--of", "y", "--wrt", "ww")
    e = "x = tensor([1., 2.])\nk = tensor([1., 2.], requires_grad=True)\ny = x * k"
    assert "`x` does not require grad" in fails(runner, "jacobian", "-e", e, "--wrt", "x")
    assert "does not require grad" in fails(runner, "jacobian", "-e", e, "--of", "x")
    err = fails(runner, "jacobian", "-e", "x = tensor([1., 2.], requires_grad=True\ny = x")
    assert "syntax error" in err
    assert "--v has 3 values" in fails(
        runner, "hvp", prog, "--of", "loss", "--wrt", "w", "--v", "1,2,3"
    )
    assert "no such file" in fails(runner, "jacobian", "missing.py")
    assert "--set w" in fails(runner, "jacobian", prog, "--set", "w=1,2")


def test_jacobian_limit_is_named_with_how_to_raise_it(runner: CliRunner, prog: str) -> None:
    lim = CliRunner(env={"GRADCLI_JACOBIAN_ENTRIES": "15"})
    assert (
        lim.invoke(app, ["jacobian", prog, "--of", "y", "--wrt", "x", "--wrt", "w"]).exit_code == 1
    )
    result = lim.invoke(
        app, ["jacobian", prog, "--of", "y", "--wrt", "x", "--wrt", "w", "--method", "batched"]
    )
    assert result.exit_code == 1, result.output
    assert "the number of Jacobian entries (2 x 12) is 24, over the limit of 15" in result.stderr
    assert "jacobian_entries" in result.stderr
    assert "GRADCLI_JACOBIAN_ENTRIES=N" in result.stderr
    at = CliRunner(env={"GRADCLI_JACOBIAN_ENTRIES": "24"})
    assert (
        at.invoke(app, ["jacobian", prog, "--of", "y", "--wrt", "x", "--wrt", "w"]).exit_code == 0
    )
    result = CliRunner(env={"GRADCLI_JACOBIAN_ENTRIES": "16"}).invoke(
        app, ["hessian", prog, "--of", "loss", "--wrt", "w"]
    )
    assert result.exit_code == 0, result.output  # 4 x 4 entries: at the limit
    result = CliRunner(env={"GRADCLI_JACOBIAN_ENTRIES": "16"}).invoke(
        app, ["hessian", prog, "--of", "loss", "--wrt", "w", "--wrt", "u"]
    )
    assert result.exit_code == 1 and "Hessian entries (5 x 5) is 25" in result.stderr


def test_usage_errors_exit_2(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    assert "--heat" in fails(runner, "jacobian", prog, "--heat", "-f", "json", code=2)
    assert "method forward uses none" in fails(
        runner, "jacobian", prog, "--of", "y", "--show-masks", "-m", "forward", code=2
    )
    assert "--show-masks" in fails(runner, "jacobian", prog, "--show-masks", "-f", "csv", code=2)
    assert "--compare" in fails(runner, "jacobian", prog, "--compare", "-f", "npy", code=2)
    assert "--heat cannot" in fails(runner, "jacobian", prog, "--heat", "--compare", code=2)
    assert "needs the vector" in fails(runner, "hvp", prog, "--of", "loss", code=2)
    assert ".npz" in fails(
        runner, "jacobian", prog, "-o", str(tmp_path / "a.npz"), "-f", "csv", code=2
    )
    assert "not both" in fails(runner, "jacobian", prog, "-e", "x = 1", code=2)
    result = runner.invoke(app, ["jacobian", prog, "--method", "sideways"])
    assert result.exit_code == 2 and "sideways" in result.stderr
    result = runner.invoke(app, ["hessian", prog, "--method", "forward"])
    assert result.exit_code == 2


def test_help_lists_the_options(runner: CliRunner) -> None:
    out, _ = ok(runner, "jacobian", "--help")
    for opt in (
        "--of",
        "--wrt",
        "--method",
        "--show-masks",
        "--compare",
        "--heat",
        "--format",
        "--output",
        "--precision",
        "--set",
        "--seed",
        "--dtype",
        "--expr",
    ):
        assert opt in out
    assert "--v" in ok(runner, "hvp", "--help")[0]


def _clock(monkeypatch, *times: float) -> None:
    """time.perf_counter gives these times, then the last one again."""
    from gradcli.cli.commands import jacobian as cmd

    left = list(times)
    monkeypatch.setattr(cmd.time, "perf_counter", lambda: left.pop(0) if len(left) > 1 else left[0])


def test_a_long_rows_estimate_suggests_batched(monkeypatch, capsys) -> None:
    from gradcli.cli.commands import jacobian as cmd

    hint = "--method batched makes the same rows in one pass"
    _clock(monkeypatch, 0.0, 0.5, 0.6, 9.0)
    bar = cmd._ProgressBar("jacobian (rows)", hint)
    bar.enabled = True
    bar(1, 100)  # 0.5 s for 1 row of 100: an estimate of 50 s
    assert bar.long
    bar(2, 100)
    bar.close()
    assert f"that took 9.0 s: {hint}" in capsys.readouterr().err
    _clock(monkeypatch, 0.0, 0.3)
    quick = cmd._ProgressBar("jacobian (rows)", hint)
    quick.enabled = True
    quick(50, 100)  # 0.3 s for half: 0.6 s in all, no bar at all
    quick.close()
    assert quick.bar is None and not quick.long and hint not in capsys.readouterr().err
