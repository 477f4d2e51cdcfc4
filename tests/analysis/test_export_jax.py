"""`gradcli export --to jax`: the generated script runs under JAX (where installed) and gives
gradcli's gradients, and jax.jacrev on its function gives gradcli's Jacobian; whatever the
program, the script is inert (imports only jax and numpy, names and strings escaped)."""

from __future__ import annotations

import ast
import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from gradcli import ops
from gradcli.analysis.export import INTERNAL
from gradcli.analysis.export_jax import JAX
from gradcli.cli.main import app

from .test_export import PROGRAMS as TORCH_PROGRAMS

HEAD = "import torch\nimport torch.nn.functional as F\n"
PROGRAMS = {
    **TORCH_PROGRAMS,
    "elementwise": """
x = torch.tensor([[0.3, -1.2, 2.0], [0.7, 0.1, -0.4]], requires_grad=True)
w = torch.tensor([0.5, -0.25, 1.5], requires_grad=True)
a = torch.exp(x) + torch.log1p(x.abs()) + torch.sqrt(x * x + 1) + torch.sin(x) * torch.cos(w)
b = torch.tan(x / 4) + torch.sigmoid(x) + torch.relu(x) + torch.erf(x) + F.leaky_relu(x, 0.2)
c = F.softplus(x, beta=2.0) + F.gelu(x, approximate='tanh') + torch.clamp(x, -0.5, 1.0)
d = torch.where(x > 0, x * w, -x) + torch.maximum(x, w) + torch.minimum(x, w * 2) + 2 ** w
e = (a * b - c / (d.abs() + 1)).log_softmax(dim=1).sum(dim=0, keepdim=True)
f1 = e.mean() + e.prod() + torch.logsumexp(d, dim=1).sum() + x.norm(p=3, dim=1).sum()
g = x.reshape(-1)[torch.tensor([0, 2, 5])].sum() + x[x > 0].sum() + torch.sign(w).sum()
loss = f1 + g + torch.tanh(x).sum()
""",
    "losses": """
z = torch.tensor([[1.0, -2.0, 0.5, 0.25], [0.3, 0.2, -0.1, 2.0], [0.0, 1.0, 1.0, -1.0]],
                 requires_grad=True)
p = torch.sigmoid(z)
t = torch.tensor([[1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 0.0]])
l1 = F.binary_cross_entropy(p, t, weight=torch.tensor([0.5, 1.0, 2.0, 1.0]))
l2 = F.nll_loss(F.log_softmax(z, dim=1), torch.tensor([0, -100, 3]),
                weight=torch.tensor([1.0, 2.0, 0.5, 1.5]))
l3 = F.mse_loss(z, t, reduction='sum') + F.binary_cross_entropy(p, t, reduction='none').sum()
y = l1 + l2 + l3
""",
}


def _invoke(*args: str) -> str:
    r = CliRunner().invoke(app, list(args))
    assert r.exit_code == 0, r.stdout + r.stderr
    return r.stdout


def _script(tmp_path: Path, src: str, *extra: str) -> str:
    p = tmp_path / "prog.py"
    p.write_text(src)
    return _invoke("export", str(p), "--to", "jax", *extra)


def test_every_op_has_a_translation() -> None:
    missing = [n for n in ops.REGISTRY if n not in JAX and n not in INTERNAL]
    assert not missing, f"give the records {missing} their JAX text (Op.to_jax)"


def _run(script: str) -> tuple[dict, dict[str, np.ndarray]]:
    """The script's namespace and the gradients it printed."""
    buf = io.StringIO()
    ns: dict = {}
    with contextlib.redirect_stdout(buf):
        exec(compile(script, "exported.py", "exec"), ns)  # noqa: S102 - gradcli's own output
    grads = {}
    for line in buf.getvalue().splitlines():
        name, _, value = line.partition(" ")
        grads[name] = np.array(json.loads(value))
    return ns, grads


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_export_runs_in_jax_with_the_same_gradients(name: str, tmp_path: Path) -> None:
    pytest.importorskip("jax")
    src = HEAD + PROGRAMS[name]
    _, grads = _run(_script(tmp_path, src))
    want = json.loads(_invoke("backward", str(tmp_path / "prog.py"), "--format", "json"))
    assert set(grads) == set(want["grads"])
    for k, v in want["grads"].items():
        np.testing.assert_allclose(grads[k], v, rtol=1e-10, atol=1e-12, err_msg=k)


def test_the_upstream_gradient_and_the_jacobian(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    src = HEAD + (
        "x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)\n"
        "W = torch.tensor([[0.1, 0.2, 0.3], [0.4, -0.5, 0.6]], requires_grad=True)\n"
        "h = torch.tanh(W @ x)\ny = h * x[:2]\n"
    )
    prog = str(tmp_path / "prog.py")
    ns, grads = _run(_script(tmp_path, src, "--grad", "1.5,-2", "--wrt", "W", "--wrt", "h"))
    want = json.loads(
        _invoke(
            "backward",
            prog,
            "--grad",
            "1.5,-2",
            "--wrt",
            "W",
            "--wrt",
            "h",
            "-o",
            "-",
            "--format",
            "json",
        )
    )
    for k in ("W", "h"):  # h, an intermediate: f takes a zero added to it
        np.testing.assert_allclose(grads[k], want["grads"][k], rtol=1e-12)
    import jax

    jac = jax.jacrev(ns["f"], argnums=(0, 1))(ns["W"], ns["h_delta"])
    want = json.loads(_invoke("jacobian", prog, "--wrt", "W", "--format", "json"))
    np.testing.assert_allclose(
        np.asarray(jac[0]).reshape(2, 6), want["jacobians"]["W"]["matrix"], rtol=1e-12
    )


def _inert(text: str) -> None:
    assert all(ch == "\n" or ch.isprintable() for ch in text), "a control character"
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert [a.name for a in node.names][0] in ("jax", "jax.numpy", "numpy")
        assert not isinstance(node, ast.ImportFrom | ast.Lambda | ast.With | ast.While)
        if isinstance(node, ast.Attribute):
            assert not node.attr.startswith("_")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id in ("f", "vjp", "zip", "print"), ast.unparse(node)


@pytest.mark.parametrize(
    "file_name",
    ["p\nimport os\nos.system('touch PWNED')\n#.py", "p\u2028import os.py", 'p\'"""`{x}.py'],
)
def test_the_script_is_inert_whatever_the_names(tmp_path: Path, file_name: str) -> None:
    (tmp_path / file_name).write_text(
        HEAD + "jax = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "np = torch.tensor([3.0, 4.0])\nf = (jax * np).sum()\n"
    )
    text = _invoke("export", str(tmp_path / file_name), "--to", "jax")
    _inert(text)
    assert "\nimport os" not in text
    # The program's `jax`, `np` and `f` do not rebind the script's own names.
    assert "jax_ = jnp.array([1.0, 2.0]" in text and "np_ = jnp.array([3.0, 4.0]" in text


def test_custom_gradients_and_unknown_operations_are_refused(tmp_path: Path) -> None:
    src = HEAD + (
        "def f(x):\n    return x * 2\n"
        "def f_backward(x, g):\n    return g * 2\n"
        "x = torch.tensor([1.0], requires_grad=True)\ny = f(x).sum()\n"
    )
    (tmp_path / "prog.py").write_text(src)
    r = CliRunner().invoke(app, ["export", str(tmp_path / "prog.py"), "--to", "jax"])
    assert r.exit_code == 1 and "user-defined gradient" in r.stderr, r.stderr


def test_a_tensor_changed_in_place(tmp_path: Path) -> None:
    """Each version of a tensor changed in place is its own value in f; the gradient of the
    intermediate is its last version's, as PyTorch's retain_grad gives it."""
    pytest.importorskip("jax")
    src = HEAD + (
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\nh = x * 2\nh += 1\ny = (h * h).sum()\n"
    )
    _, grads = _run(_script(tmp_path, src, "--wrt", "x", "--wrt", "h"))
    want = json.loads(
        _invoke("backward", str(tmp_path / "prog.py"), "--wrt", "x", "--wrt", "h", "-f", "json")
    )
    for k in ("x", "h"):
        np.testing.assert_allclose(grads[k], want["grads"][k], rtol=1e-15)
