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
}


def test_every_op_has_a_translation() -> None:
    missing = [n for n in ops.REGISTRY if n not in TORCH and n not in INTERNAL]
    assert not missing, f"add PyTorch translations to gradcli/export.py for {missing}"


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
