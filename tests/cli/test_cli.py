"""The core commands through typer's CliRunner: every option and error path."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli.cli.main import app

PROG = """\
import torch
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
h = x * w
y = h.sum(dim=1)
"""


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner(env={"COLUMNS": "100", "NO_COLOR": "1"})


@pytest.fixture
def prog(tmp_path: Path) -> str:
    p = tmp_path / "prog.py"
    p.write_text(PROG)
    return str(p)


def ok(runner: CliRunner, *args: str, input: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=input)
    assert result.exit_code == 0, result.output + result.stderr
    return result.stdout


def fails(runner: CliRunner, *args: str, code: int = 1) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, result.stdout + result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stdout == ""
    return result.stderr


def test_run_prints_like_pytorch(runner: CliRunner) -> None:
    out = ok(runner, "run", "examples/seed_masks.py")
    assert out.splitlines()[0] == "tensor([[2., 0., 0., 0.]])"


def test_run_from_stdin(runner: CliRunner) -> None:
    out = ok(runner, "run", "-", input="x = torch.ones(2, requires_grad=True)\nprint(x * 3)\n")
    assert out == "tensor([3., 3.], grad_fn=<MulBackward0>)\n"


def test_forward_plain_and_json(runner: CliRunner, prog: str) -> None:
    assert ok(runner, "forward", prog, "--of", "y") == "-1.5 -2.5\n"
    data = json.loads(ok(runner, "forward", prog, "--format", "json"))
    assert data["values"]["h"] == [[0.5, -2.0], [1.5, -4.0]]
    assert data["shapes"]["y"] == [2]
    assert data["requires_grad"]["x"] is True
    assert data["grad_fn"]["y"] == "SumBackward1"


def test_forward_table(runner: CliRunner, prog: str) -> None:
    out = ok(runner, "forward", prog, "--format", "table", "--of", "h")
    assert "h  shape [2, 2]" in out and "-4" in out


@pytest.mark.parametrize(
    "grad, expected_x",
    [
        ("1,0", [[0.5, -1.0], [0.0, 0.0]]),
        ("[0, 1]", [[0.0, 0.0], [0.5, -1.0]]),
        ("ones", [[0.5, -1.0], [0.5, -1.0]]),
        ("onehot:1", [[0.0, 0.0], [0.5, -1.0]]),
        ("2 3", [[1.0, -2.0], [1.5, -3.0]]),
    ],
)
def test_backward_grad_forms(runner: CliRunner, prog: str, grad: str, expected_x) -> None:
    data = json.loads(ok(runner, "backward", prog, "--grad", grad, "--format", "json"))
    assert data["of"] == "y" and data["of_shape"] == [2]
    np.testing.assert_array_equal(data["grads"]["x"], expected_x)


@pytest.mark.parametrize("ext", ["npy", "json", "csv"])
def test_backward_grad_from_file(runner: CliRunner, prog: str, tmp_path: Path, ext: str) -> None:
    f = tmp_path / f"g.{ext}"
    if ext == "npy":
        np.save(f, np.array([2.0, 0.0]))
    elif ext == "json":
        f.write_text("[2, 0]")
    else:
        f.write_text("2,0\n")
    data = json.loads(ok(runner, "backward", prog, "--grad", f"@{f}", "--format", "json"))
    assert data["grad_output"] == [2.0, 0.0]
    assert data["grads"]["w"] == [2.0, 4.0]


def test_backward_json_contract(runner: CliRunner, prog: str) -> None:
    data = json.loads(ok(runner, "backward", prog, "--grad", "1,1", "--format", "json"))
    assert set(data) >= {"of", "of_shape", "grad_output", "grads"}
    assert list(data["grads"]) == ["x", "w"]
    assert data["grads"]["w"] == [4.0, 6.0]


def test_backward_wrt_intermediate_and_of(runner: CliRunner, prog: str) -> None:
    data = json.loads(
        ok(runner, "backward", prog, "--of", "y", "--wrt", "h", "--grad", "1,2", "--format", "json")
    )
    assert data["grads"] == {"h": [[1.0, 1.0], [2.0, 2.0]]}


def test_backward_scalar_default_ones(runner: CliRunner) -> None:
    out = ok(
        runner,
        "backward",
        "-e",
        "x = tensor([1., 2., 3.], requires_grad=True)\nloss = (x ** 2).sum()",
    )
    assert out == "2 4 6\n"


def test_backward_plain_several_blocks(runner: CliRunner, prog: str) -> None:
    out = ok(runner, "backward", prog, "--grad", "ones")
    assert out == "# x [2, 2]\n0.5 -1\n0.5 -1\n\n# w [2]\n4 6\n"


def test_backward_precision(runner: CliRunner) -> None:
    out = ok(
        runner,
        "backward",
        "-e",
        "x = tensor([1., 2.], requires_grad=True)\ny = (x / 3).sum()",
        "--precision",
        "3",
    )
    assert out == "0.333 0.333\n"


def test_backward_set_replaces_leaf(runner: CliRunner, prog: str) -> None:
    data = json.loads(
        ok(
            runner,
            "backward",
            prog,
            "--set",
            "w=2,3",
            "--grad",
            "1,1",
            "--format",
            "json",
            "--wrt",
            "x",
        )
    )
    assert data["grads"]["x"] == [[2.0, 3.0], [2.0, 3.0]]


def test_backward_dtype_float32(runner: CliRunner) -> None:
    data = json.loads(
        ok(
            runner,
            "backward",
            "-e",
            "x = tensor([0.1], requires_grad=True)\ny = x * 3",
            "--dtype",
            "float32",
            "--format",
            "json",
        )
    )
    assert data["grads"]["x"] == [pytest.approx(3.0)]


def test_backward_seed_changes_randn(runner: CliRunner) -> None:
    src = "x = torch.randn(3, requires_grad=True)\ny = (x * x).sum()"
    a = ok(runner, "backward", "-e", src, "--seed", "1")
    b = ok(runner, "backward", "-e", src, "--seed", "1")
    c = ok(runner, "backward", "-e", src, "--seed", "2")
    assert a == b != c


def test_backward_output_file(runner: CliRunner, prog: str, tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    assert (
        ok(runner, "backward", prog, "--grad", "1,0", "--format", "json", "--output", str(out))
        == ""
    )
    assert json.loads(out.read_text())["grads"]["w"] == [1.0, 2.0]


def test_backward_table(runner: CliRunner, prog: str) -> None:
    out = ok(runner, "backward", prog, "--grad", "1,0", "--format", "table")
    assert "x.grad" in out and "w.grad" in out and "upstream gradient" in out
    assert "reshaped" not in out  # a 1-D flat --grad of the right shape needs no note


def test_backward_trace(runner: CliRunner, prog: str) -> None:
    out = ok(runner, "backward", prog, "--grad", "1,0", "--trace", "--wrt", "w")
    assert "SumBackward1" in out and "MulBackward0" in out and "received" in out


def test_backward_unused_input_is_zero(runner: CliRunner) -> None:
    result = runner.invoke(
        app,
        [
            "backward",
            "-e",
            "a = tensor([1.], requires_grad=True)\nb = tensor([2.], requires_grad=True)\ny = a * 2",
        ],
    )
    assert result.exit_code == 0
    assert result.stdout == "# a [1]\n2\n\n# b [1]\n0\n"
    assert "does not depend on `b`" in result.stderr


def test_error_non_scalar_without_grad(runner: CliRunner, prog: str) -> None:
    err = fails(runner, "backward", prog)
    assert "grad can be implicitly created only for scalar outputs" in err
    assert "--grad" in err


def test_error_wrong_grad_length(runner: CliRunner, prog: str) -> None:
    err = fails(runner, "backward", prog, "--grad", "1,2,3")
    assert "3" in err and "2" in err


def test_error_unknown_of_suggests(runner: CliRunner, prog: str) -> None:
    err = fails(runner, "backward", prog, "--of", "yy")
    assert "yy" in err and "did you mean `y`" in err


def test_error_unknown_wrt(runner: CliRunner, prog: str) -> None:
    err = fails(runner, "backward", prog, "--wrt", "ww", "--grad", "ones")
    assert "did you mean `w`" in err


def test_error_program_position(runner: CliRunner, tmp_path: Path) -> None:
    p = tmp_path / "bad.py"
    p.write_text("x = torch.ones(2, requires_grad=True)\ny = torch.sigmoidd(x)\n")
    err = fails(runner, "backward", str(p))
    assert f"{p}:2:5:" in err
    assert " 2 | y = torch.sigmoidd(x)" in err
    assert "^^^^^^^^^^^^^^" in err
    assert "did you mean `sigmoid`" in err


def test_error_missing_file(runner: CliRunner) -> None:
    assert "no such file" in fails(runner, "backward", "nope.py")


def test_error_usage_exit_2(runner: CliRunner, prog: str) -> None:
    result = runner.invoke(app, ["backward", prog, "--format", "xml"])
    assert result.exit_code == 2
    result = runner.invoke(app, ["backward", prog, "-e", "x = 1"])
    assert result.exit_code == 2


def test_error_shape_mismatch_in_program(runner: CliRunner) -> None:
    err = fails(runner, "run", "-e", "x = torch.ones(2, 3)\ny = torch.ones(4)\nz = x + y")
    assert "<-e>:3:5" in err and "must match the size of tensor b (4)" in err


def test_version(runner: CliRunner) -> None:
    assert ok(runner, "--version").startswith("gradcli ")


def test_graph_tree(runner: CliRunner, prog: str) -> None:
    out = ok(runner, "graph", prog)
    assert out.splitlines() == [
        "y [2]  SumBackward1(dim=1, keepdim=False)",
        "└── h [2, 2]  MulBackward0",
        "    ├── x [2, 2]  leaf, requires_grad",
        "    └── w [2]  leaf, requires_grad",
    ]


def test_graph_shared_node_shown_once(runner: CliRunner) -> None:
    out = ok(
        runner, "graph", "-e", "x = tensor([1.], requires_grad=True)\na = x * x\ny = a + a.exp()"
    )
    # `a` (an operation) and `x` (a leaf) are each drawn once, then referred to by id.
    assert out.count("shown above)") == 2
    assert out.count("MulBackward0") == 1 and out.count("leaf, requires_grad") == 1
    assert "a  (#1, shown above)" in out


def test_graph_dot_and_json(runner: CliRunner, prog: str) -> None:
    dot = ok(runner, "graph", prog, "--dot")
    assert dot.startswith("digraph gradcli {") and "n2 -> n1;" in dot
    data = json.loads(ok(runner, "graph", prog, "--format", "json"))
    assert data["of"] == "y"
    assert [n["op"] for n in data["nodes"]] == ["SumBackward1", "MulBackward0", None, None]
    assert data["nodes"][1]["inputs"] == [2, 3]


def test_graph_deep_chain_no_recursion(runner: CliRunner) -> None:
    src = "x = tensor([1.], requires_grad=True)\ny = x\nfor i in range(5000):\n    y = y * 1.0\n"
    out = ok(runner, "graph", "-e", src)
    lines = out.splitlines()
    # Every node once (the 5,000 products and their constants), each deep part continued in a
    # drawing of its own: no line wider than MAX_DEPTH levels of indentation.
    assert sum("MulBackward0" in line and "(continued)" not in line for line in lines) == 5000
    assert sum(line.endswith("constant") for line in lines) == 5000
    assert max(len(line) for line in lines) < 4 * 13 + 60
    assert out.count("(inputs below, at #") == out.count("(continued)") > 300


def test_graph_values_and_grads_are_the_backward_pass(runner: CliRunner, tmp_path: Path) -> None:
    """graph --values --grads: each node's value, and the gradient of the output with respect
    to it, checked against central differences through --set."""
    src = (
        "x = tensor([0.5, -1.0, 2.0], requires_grad=True)\n"
        "a = x * x\nb = a.sin()\ny = (b * x).sum()\n"
    )
    data = json.loads(ok(runner, "graph", "-e", src, "--values", "--grads", "--format", "json"))
    by = {n["name"]: n for n in data["nodes"] if n["name"]}
    x = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(by["a"]["value"], x * x, rtol=1e-15)
    np.testing.assert_allclose(by["b"]["value"], np.sin(x * x), rtol=1e-15)
    # dy/db = x; dy/dx = sin(x^2) + x cos(x^2) 2x, against finite differences of y.
    np.testing.assert_allclose(by["b"]["grad"], x, rtol=1e-15)

    def y_at(v: np.ndarray) -> float:
        out = ok(
            runner,
            "forward",
            "-e",
            src,
            "--of",
            "y",
            "--format",
            "json",
            "--set",
            "x=" + ",".join(repr(float(t)) for t in v),
        )
        return float(json.loads(out)["values"]["y"])

    h = 1e-6
    fd = [(y_at(x + h * e) - y_at(x - h * e)) / (2 * h) for e in np.eye(3)]
    np.testing.assert_allclose(by["x"]["grad"], fd, rtol=1e-7)
    text = ok(runner, "graph", "-e", src, "--values", "--grads", "--format", "plain")
    assert "│ value [0.25, 1, 4]" in text and "grad [0.5, -1, 2]" in text
    assert "grad [" not in ok(runner, "graph", "-e", src, "--values", "--format", "plain")


def test_graph_grads_of_a_vector_output_need_grad(runner: CliRunner) -> None:
    src = "x = tensor([1.0, 2.0], requires_grad=True)\ny = x * 3\n"
    err = fails(runner, "graph", "-e", src, "--grads")
    assert "grad can be implicitly created only for scalar outputs" in err
    out = ok(runner, "graph", "-e", src, "--grads", "--grad", "1,0", "--format", "plain")
    assert "grad [3, 0]" in out
    assert "add --grads" in fails(runner, "graph", "-e", src, "--grad", "1,0", code=2)


def test_graph_mermaid_and_dot_carry_values(runner: CliRunner, prog: str) -> None:
    mmd = ok(runner, "graph", prog, "--mermaid", "--values")
    assert mmd.startswith("flowchart BT") and "<br/>value [" in mmd
    dot = ok(runner, "graph", prog, "--dot", "--grads", "--grad", "1,1")
    assert "\\ngrad [" in dot
    assert "two formats" in fails(runner, "graph", prog, "--dot", "--mermaid", code=2)


def test_inplace_add_on_a_leaf_is_refused_as_in_pytorch(runner: CliRunner) -> None:
    err = fails(runner, "run", "-e", "w = torch.ones(2, requires_grad=True)\nw += 1")
    assert "<-e>:2:1" in err and "leaf Variable that requires grad" in err


def test_hessian_through_custom_function_saving_its_output(runner: CliRunner) -> None:
    src = (
        "class Exp(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, i):\n"
        "        r = i.exp()\n        ctx.save_for_backward(r)\n        return r\n"
        "    @staticmethod\n    def backward(ctx, g):\n        r, = ctx.saved_tensors\n"
        "        return g * r\nx = torch.tensor([0.5, 1.0], requires_grad=True)\n"
        "y = Exp.apply(x).sum()\n"
    )
    data = json.loads(ok(runner, "hessian", "-e", src, "--format", "json"))
    np.testing.assert_allclose(
        data["hessians"]["x"]["matrix"], np.diag(np.exp([0.5, 1.0])), rtol=1e-12
    )


# --- --output never destroys an input, and never leaves half a file ------------------------


@pytest.mark.parametrize("how", ["same", "dot", "symlink", "hardlink"])
def test_output_refuses_the_program_file(runner: CliRunner, tmp_path: Path, how: str) -> None:
    import os

    prog = tmp_path / "p.py"
    text = "import torch\nx = torch.tensor([1., 2.], requires_grad=True)\ny = (x * x).sum()\n"
    prog.write_text(text)
    target = {"same": prog, "dot": tmp_path / "." / "p.py"}.get(how)
    if how == "symlink":
        target = tmp_path / "link.py"
        os.symlink(prog, target)
    if how == "hardlink":
        target = tmp_path / "hard.py"
        os.link(prog, target)
    r = runner.invoke(app, ["backward", str(prog), "-o", str(target)])
    assert r.exit_code == 2, r.output
    assert "is an input of this command" in r.stderr
    assert prog.read_text() == text


@pytest.mark.parametrize("opt", ["--grad", "--set"])
def test_output_refuses_a_values_file(runner: CliRunner, tmp_path: Path, opt: str) -> None:
    prog = tmp_path / "p.py"
    prog.write_text("import torch\nx = torch.tensor([1., 2.], requires_grad=True)\ny = x * 3\n")
    g = tmp_path / "g.json"
    g.write_text("[1, 2]")
    if opt == "--grad":
        commands = [["backward", str(prog), "--grad", f"@{g}"]]
    else:
        commands = [
            ["backward", str(prog), "--set", f"x=@{g}", "--grad", "1,1"],
            ["jacobian", str(prog), "--set", f"x=@{g}"],
        ]
    for argv in commands:
        r = runner.invoke(app, [*argv, "-o", str(g)])
        assert r.exit_code == 2, r.output
        assert "is an input of this command" in r.stderr
        assert g.read_text() == "[1, 2]"


def test_output_is_written_whole_or_not_at_all(runner: CliRunner, tmp_path: Path) -> None:
    """A failed write leaves the old file as it was and no temporary file behind."""
    import os

    prog = tmp_path / "p.py"
    prog.write_text("import torch\nx = torch.tensor([1., 2.], requires_grad=True)\ny = x.sum()\n")
    out = tmp_path / "out.txt"
    out.write_text("old")
    os.chmod(out, 0o640)
    r = runner.invoke(app, ["backward", str(prog), "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_text().split() == ["1", "1"]
    assert oct(out.stat().st_mode & 0o777) == oct(0o640)  # the mode is kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt", "p.py"]
    r = runner.invoke(app, ["backward", str(prog), "-o", str(tmp_path)])
    assert r.exit_code == 1 and "directory" in r.stderr
    if os.path.exists("/dev/full"):
        r = runner.invoke(app, ["backward", str(prog), "-o", "/dev/full"])
        assert r.exit_code == 1, r.output
        assert "cannot write /dev/full" in r.stderr


def test_the_console_script_knows_the_module_of_every_command() -> None:
    """`gradcli CMD` imports only CMD's module: its table must name every command."""
    from gradcli.cli.console import COMMANDS

    registered = {
        (c.name or c.callback.__name__.replace("_", "-")): c.callback.__module__
        for c in app.registered_commands
    }
    assert set(registered) == set(COMMANDS)
    for name, module in registered.items():
        assert module == f"gradcli.cli.commands.{COMMANDS[name]}", name


def test_graph_and_trace_share_node_ids(runner: CliRunner) -> None:
    src = open("examples/mlp.py").read()
    graph = json.loads(ok(runner, "graph", "-e", src, "--format", "json"))
    ids = {f"#{n['id']}": n["op"] for n in graph["nodes"] if n["name"] is None and n["op"]}
    trace = json.loads(
        ok(runner, "backward", "-e", src, "--wrt", "b1", "--trace", "--format", "json")
    )["trace"]
    unnamed = {s["output"]: s["node"] for s in trace if s["output"].startswith("#")}
    assert unnamed and unnamed == {k: v for k, v in ids.items() if k in unnamed}
    assert set(unnamed) == set(ids)  # every unnamed operation, by the same id


def test_graph_values_of_a_tensor_changed_in_place(runner: CliRunner) -> None:
    """The old version of a tensor changed in place has no value left to show; the current one
    has its own, and the gradients are the backward pass's."""
    src = "x = torch.tensor([1.0, 2.0], requires_grad=True)\nh = x * 2\nh += 1\ny = (h * h).sum()"
    data = json.loads(ok(runner, "graph", "-e", src, "--values", "--grads", "-f", "json"))
    by_op = {(n["name"], n["op"]): n for n in data["nodes"]}
    assert by_op[("h", "AddBackward0")]["value"] == [3.0, 5.0]
    assert by_op[("h", "AddBackward0")]["grad"] == [6.0, 10.0]
    muls = [n for n in data["nodes"] if n["op"] == "MulBackward0"]
    assert sorted(n.get("value", []) for n in muls) == [[], [9.0, 25.0]]  # x * 2: gone
    assert by_op[("x", None)]["grad"] == [12.0, 20.0]
