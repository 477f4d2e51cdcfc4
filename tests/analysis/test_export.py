"""`gradcli export --to torch`: the generated script runs in PyTorch and gives gradcli's
gradients."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli import ops
from gradcli.analysis import api
from gradcli.analysis.export import INTERNAL, TORCH
from gradcli.cli.main import app

PROGRAMS = {
    "scatter": """
x = torch.tensor([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]], requires_grad=True)
s = torch.tensor([[1.0, -2.0, 0.5], [0.25, 3.0, -1.5]], requires_grad=True)
i = torch.tensor([[1, 0, 1], [0, 1, 0]])
a = x.scatter(0, i, s) * x
b = x.scatter_add(1, torch.tensor([[2, 2, 0], [1, 0, 0]]), s).exp()
c = x.index_add(1, torch.tensor([2, 0, 2]), s, alpha=0.5).sin()
d = x.index_fill(1, torch.tensor([1]), -1.0) * s + x.masked_fill(x > 0.5, 2.0)
y = (a + b + c + d).sum()
""",
    "mlp": open("examples/mlp.py").read(),
    "classifier": open("examples/softmax_classifier.py").read(),
    "zoo": """
x = torch.tensor([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]], requires_grad=True)
v = torch.tensor([0.5, -0.25, 1.5], requires_grad=True)
t = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25]])
a = (x * v - v / 3 + 2 ** x - x ** 2 + 1 / (x + 3)).sum()
b = (x.exp() + x.sin() * x.cos() + x.tanh() + x.sigmoid() + torch.tan(x / 3)).sum()
z = x.abs() + 0.1
c = (z.log() + z.sqrt() + torch.log1p(z) + z ** x).mean()
d = (F.relu(x) + F.leaky_relu(x, 0.2) + F.softplus(x) + F.gelu(x) + x.clamp(-1, 1)).sum()
e = x.max(dim=1).values.sum() + x.min() + torch.maximum(x, -x).sum() + x.amax(dim=0).sum()
f = x.sum(0).prod() + x.var() + x.std(dim=0).sum() + x.norm() + x.norm(p=1, dim=1).sum()
g = torch.logsumexp(x, dim=1).sum() + F.softmax(x, dim=1)[0, 1] + F.log_softmax(x, dim=0)[1, 2]
h = x.reshape(3, 2).t().sum() + x.T[1:, :1].sum() + torch.cat([x, x], dim=1)[:, ::2].sum()
i = torch.stack([x, -x], dim=2).pow(2).sum() + x.expand(2, 2, 3).sum() + x[..., -1].sum()
j = (x @ x.t()).sum() + torch.dot(v, v) + torch.outer(v, v).sum() + x[torch.tensor([1, 0])][0, 0]
k = F.mse_loss(x, t) + F.binary_cross_entropy(torch.sigmoid(x), t)
k = k + F.cross_entropy(x, torch.tensor([2, 0]))
l = torch.where(x > 0, x * x, -x).sum() + x.float().sum()
l = l + F.nll_loss(x, torch.tensor([0, 1]), reduction='sum')
y = a + b + c + d + e + f + g + h + i + j + k + l
""",
    "elementwise": """
x = torch.tensor([[0.3, -0.6, 0.45], [0.2, 0.7, -0.4]], requires_grad=True)
w = torch.tensor([1.5, 2.5, 3.5], requires_grad=True)
a = (torch.asin(x) + torch.acos(x) + torch.atan(x) + x.sinh() + x.cosh() + torch.asinh(x)).sum()
a = a + torch.atanh(x).sum() + torch.expm1(x).sum() + torch.sinc(x).sum()
b = (torch.acosh(w) + torch.exp2(w) + torch.log2(w) + torch.log10(w) + w.rsqrt()).sum()
b = b + w.reciprocal().sum()
c = (x.floor() + x.ceil() + torch.round(x, decimals=1) + x.round() + x.trunc() + x.frac()).sum()
c = c + torch.nan_to_num(x).sum()
d = (torch.atan2(x, w) + x % w + torch.fmod(x, w) + torch.div(x, w, rounding_mode='floor')).sum()
y = a + b + c + d
""",
    "scans": """
x = torch.tensor([[0.3, -1.2, 2.0, 0.9], [1.5, 0.7, -0.4, 0.1]], requires_grad=True)
a = x.cumsum(1).sum() + torch.cumprod(x, dim=0).sum() + torch.logcumsumexp(x, dim=1).sum()
b = torch.flip(x, [0, 1])[0, 1] + x.roll(1, 1)[1, 0] * 2 + torch.diff(x, n=2).pow(2).sum()
c = torch.cummax(x, 1).values.sum() + x.median() + x.median(dim=0).values.sum()
d = torch.trapezoid(x, dx=0.5).sum() + torch.tile(x, (2,)).sum()
d = d + x.index_select(1, torch.tensor([3, 0])).sum()
y = a + b + c + d + torch.std_mean(x, dim=1)[0].sum() + torch.quantile(x, 0.3)
""",
    "decompositions": """
x = torch.tensor([[2.0, 0.3, -0.2], [0.1, 1.5, 0.4], [-0.3, 0.2, 3.0]], requires_grad=True)
A = x @ x.T + torch.eye(3)
a = torch.linalg.eigh(A)[0].sum() + torch.linalg.eigh(A)[1].abs().sum()
b = torch.linalg.svd(x)[1].sum() + torch.linalg.svd(x)[0].abs().sum()
c = torch.linalg.qr(x)[1].abs().sum() + torch.linalg.qr(x)[0].abs().sum()
y = a + b + c + torch.linalg.slogdet(A)[1] + torch.einsum('ij,jk->ik', x, A).sum()
""",
    "pools": """
x = torch.tensor([[[[0.3, -1.2, 2.0, 0.9, 0.1], [1.5, 0.7, -0.4, 0.1, 0.2],
                    [0.5, -0.2, 1.1, -0.8, 0.6], [0.0, 0.4, -1.0, 2.2, 0.3],
                    [1.2, 0.9, 0.8, -0.5, 0.7]]]], requires_grad=True)
a = F.max_pool2d(x, 2, padding=1).sum() + F.max_pool2d(x, 3, stride=2, ceil_mode=True).sum()
b = F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True).pow(2).sum()
c = F.avg_pool2d(x, 2, stride=2, ceil_mode=True, count_include_pad=False).sum()
y = a + b + c + F.unfold(x, 2).pow(2).sum()
""",
    "decoder": """
x = torch.tensor([[[[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]], [[0.5, -0.2, 1.1], [0.0, 0.4, -1.0]]]],
                 requires_grad=True)
w = torch.tensor([[[[0.2, -0.5], [1.0, 0.3]]], [[[-0.7, 0.4], [0.6, 0.9]]]], requires_grad=True)
b = torch.tensor([0.1], requires_grad=True)
u = F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1)
v = F.interpolate(x, scale_factor=2).sin().sum() * F.conv_transpose2d(
    x, w.repeat(1, 2, 1, 1), groups=2
).pow(2).sum()
y = u.pow(2).sum() + v.sum() + F.interpolate(x, size=(3, 5)).pow(3).sum()
""",
}


def test_every_op_has_a_translation() -> None:
    missing = [n for n in ops.REGISTRY if n not in TORCH and n not in INTERNAL]
    assert not missing, f"give the records {missing} their PyTorch text (Op.to_torch)"


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_export_runs_in_torch_with_the_same_gradients(name: str, tmp_path) -> None:
    torch = pytest.importorskip("torch")
    src = "import torch\nimport torch.nn.functional as F\n" + PROGRAMS[name]
    p = tmp_path / "prog.py"
    p.write_text(src)
    result = CliRunner().invoke(app, ["export", str(p), "--to", "torch"])
    assert result.exit_code == 0, result.output
    buf = io.StringIO()
    ns: dict = {}
    with contextlib.redirect_stdout(buf):
        exec(compile(result.stdout, "<export>", "exec"), ns)  # noqa: S102 - the reference
    ours = api.backward(api.load(src))
    assert ours.grads
    for n, g in ours.grads.items():
        got = ns[n].grad.detach().numpy()
        np.testing.assert_allclose(got, g, rtol=1e-12, atol=1e-14, err_msg=n)
    del torch


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_export_is_a_plain_script(name: str) -> None:
    """What the hostile corpus's judge asks of an export: imports of torch, assignments to
    fresh names, one backward, prints; no comprehension, lambda or builtin beyond print (a
    decomposition's results are taken by index, ceil_mode is arithmetic on shapes)."""
    from tests.corpus.hostile2.judge import inert_problems

    src = "import torch\nimport torch.nn.functional as F\n" + PROGRAMS[name]
    result = CliRunner().invoke(app, ["export", "-e", src, "--to", "torch"])
    assert result.exit_code == 0, result.output
    assert inert_problems(result.stdout) == []


def test_export_refuses_custom_gradients() -> None:
    src = (
        "def f(x):\n    return x * x\ndef f_backward(x, g):\n    return 2 * x * g\n"
        "x = torch.tensor([1., 2.], requires_grad=True)\ny = f(x).sum()\n"
    )
    result = CliRunner().invoke(app, ["export", "-e", src])
    assert result.exit_code == 1
    assert "user-defined gradient" in result.stderr


def test_export_with_grad_and_intermediate_wrt() -> None:
    src = "x = torch.tensor([1., 2.], requires_grad=True)\nh = x * 3\ny = h * h\n"
    out = (
        CliRunner()
        .invoke(app, ["export", "-e", src, "--grad", "1,0", "--wrt", "h", "--wrt", "x"])
        .stdout
    )
    assert "h.retain_grad()" in out
    assert "y.backward(torch.tensor([1.0, 0.0], dtype=torch.float64))" in out


# --- what export writes is inert Python for any input --------------------------------------

# The only names a generated script may call besides torch's and F's.
_ALLOWED_BUILTINS = {"print"}


def _assert_inert(script: str) -> None:
    """The script parses, and every statement is an import of torch, an assignment, a
    `.backward(...)`/`.retain_grad()` call or a print; every call reaches torch, F, float or
    print (or a method of a value the script made)."""
    import ast

    tree = ast.parse(script)
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            assert [a.name for a in stmt.names] in (["torch"], ["torch.nn.functional"]), script
            continue
        assert isinstance(stmt, ast.Assign | ast.Expr), ast.dump(stmt)
    defined = {"torch", "F"}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            defined |= {t.id for t in stmt.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            assert node.id in defined | _ALLOWED_BUILTINS | {"True", "False", "None"}, node.id
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id in _ALLOWED_BUILTINS, ast.dump(node)
        if isinstance(node, ast.Attribute):
            assert not node.attr.startswith("_"), node.attr


HOSTILE_FILE_NAMES = [
    "a\nimport os; os.system('echo PWNED')\n#.py",
    "a\rimport os\r.py",
    "a\u2028import os.py",
    "a\x0cimport os.py",
    "q'\"\\.py",
    "\u202eyp.txt",
    "x" * 300 + ".py",
]


@pytest.mark.parametrize("name", HOSTILE_FILE_NAMES, ids=range(len(HOSTILE_FILE_NAMES)))
def test_export_header_is_inert_for_any_file_name(name: str, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        (tmp_path / name).write_text(PROGRAMS["mlp"])
    except OSError:
        pytest.skip("the file system refuses this name")
    result = CliRunner().invoke(app, ["export", name, "--to", "torch"])
    assert result.exit_code == 0, result.output
    _assert_inert(result.stdout)
    assert result.stdout.splitlines()[0].startswith("# Generated by")


def test_export_writes_non_finite_constants_as_python(tmp_path) -> None:
    src = (
        "x = torch.tensor([1.0, float('inf'), -float('inf')], requires_grad=True)\n"
        "c = torch.tensor([float('nan'), 2.0, 3.0])\n"
        "y = (torch.clamp(x, min=-float('inf'), max=1e308) * c + x ** 2.0).sum()\n"
    )
    result = CliRunner().invoke(app, ["export", "-e", src])
    assert result.exit_code == 0, result.output
    _assert_inert(result.stdout)
    assert "torch.inf" in result.stdout and "torch.nan" in result.stdout
    torch = pytest.importorskip("torch")
    buf = io.StringIO()
    ns: dict = {}
    with contextlib.redirect_stdout(buf):
        exec(compile(result.stdout, "<export>", "exec"), ns)  # noqa: S102 - the reference
    ours = api.backward(api.load("import torch\n" + src))
    np.testing.assert_array_equal(ns["x"].grad.numpy(), ours.grads["x"])
    del torch


def test_export_literals_round_trip_any_value() -> None:
    """Every value `_lit` writes reads back (as Python literals) to the same value."""
    import ast
    import math

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from gradcli.analysis.export import _lit

    scalars = st.floats(allow_nan=True, allow_infinity=True) | st.integers() | st.booleans()
    values = st.recursive(
        scalars | st.none() | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner),
        max_leaves=12,
    )

    def back(node: ast.AST):  # torch.inf / torch.nan are attributes, the rest literals
        if isinstance(node, ast.Attribute):
            return {"inf": math.inf, "nan": math.nan}[node.attr]
        if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Attribute):
            return -back(node.operand)
        if isinstance(node, ast.List):
            return [back(e) for e in node.elts]
        if isinstance(node, ast.Tuple):
            return tuple(back(e) for e in node.elts)
        if isinstance(node, ast.UnaryOp):
            return ast.literal_eval(node)
        return ast.literal_eval(node)

    def same(a, b) -> bool:
        if isinstance(a, float) and math.isnan(a):
            return isinstance(b, float) and math.isnan(b)
        if isinstance(a, list | tuple):
            return type(a) is type(b) and len(a) == len(b) and all(map(same, a, b))
        return a == b and type(a) is type(b)

    @settings(max_examples=300, deadline=None)
    @given(values)
    def prop(v) -> None:
        text = _lit(v)
        assert text.isascii() and "\n" not in text and "\r" not in text
        assert same(back(ast.parse(text, mode="eval").body), v), (v, text)

    prop()
    assert _lit(np.float64(1.5)) == "1.5" and _lit(np.array([-np.inf])) == "[-torch.inf]"
