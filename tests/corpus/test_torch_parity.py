"""Snippets written as PyTorch users write them: gradcli must print what PyTorch prints and
give the same gradients (float64, 1e-9 relative). Skipped without torch."""

from __future__ import annotations

import contextlib
import io

import numpy as np
import pytest

from gradcli.analysis import api
from gradcli.core.tensor import Tensor

torch = pytest.importorskip("torch")

H = "import torch\nimport torch.nn.functional as F\n"
X = "x = torch.tensor([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]], requires_grad=True)\n"
V = "v = torch.tensor([0.5, -0.25, 1.5], requires_grad=True)\n"

SNIPPETS = {
    "composites": "x = torch.tensor([[0.3, -1.2, 2.0], [1.5, 0.7, -0.4]], requires_grad=True)\nW = torch.tensor([[0.5, -1.0, 0.25], [2.0, 0.1, -0.3]], requires_grad=True)\nb = torch.tensor([0.1, -0.2], requires_grad=True)\nt = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25]])\ny = F.linear(x, W, b).sum() + F.silu(x).sum() + F.logsigmoid(x).sum() + F.l1_loss(x, t)\ny = y + F.binary_cross_entropy_with_logits(x, t) + x.masked_fill(x > 1, 0.0).sum()\nS = x @ x.t()\ny = y + S.tril().sum() * 2 + S.triu(1).sum() + S.diag().sum() + torch.diag(x[0]).sum() + S.trace()\ny = y + (x.cumsum(dim=1) ** 2).sum() + x.split(2, dim=1)[0].sum() * 2 + x.split([1, 2], dim=1)[1].sum() + x.chunk(2)[1].pow(2).sum()\ny = y + (x.unbind(1)[2] * 3).sum() + x.repeat(2, 3).pow(2).sum() + torch.gather(x, 1, torch.tensor([[0, 0], [2, 1]])).pow(2).sum()\nv, i = x.sort(dim=1, descending=True)\ntv, ti = torch.topk(x, 2)\ny = y + (v * torch.arange(3.)).sum() + tv.pow(3).sum() + torch.nn.SiLU()(x).sum()\ny.backward()\nprint(y)\nprint(x.grad)\nprint(W.grad, b.grad)\nprint(i, ti, F.one_hot(torch.tensor([0, 2]), 3), (x > 0).all(), (x > 0).any(dim=1))\nprint(x.new_zeros(2, 2), x.new_tensor([1., 2.]), x.sort(0))\n",
    "gradcheck_builtins": "from torch.autograd import gradcheck, gradgradcheck\n"
    + "x = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64, requires_grad=True)\n"
    + "f = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)\n"
    + "print(torch.autograd.gradcheck(torch.sin, (x,)), gradcheck(torch.exp, x, eps=1e-7))\n"
    + "print(gradgradcheck(torch.tanh, (x,)), gradcheck(F.softplus, (x,), atol=1e-8, rtol=0))\n"
    + "print(gradcheck(torch.sin, (f,), raise_exception=False), gradcheck(torch.sin, (x,), eps=0,"
    + " raise_exception=False))\n",
    "bool_list_index": X
    + "z = x[[True, False]]\nw = x[:, [True, False, True]].sum() + z.sum()\nw.backward()\nprint(z)",
    "slice_assign": X
    + "y = torch.zeros(3)\ny[0] = x[0, 0] * 2\ny[1:] = x[1, 1:] ** 2\nloss = y.sum() + x.sum()\nloss.backward()\nprint(y)",
    "custom_saves_output": X
    + "class Exp(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, i):\n        result = i.exp()\n        ctx.save_for_backward(result)\n        return result\n    @staticmethod\n    def backward(ctx, g):\n        result, = ctx.saved_tensors\n        return g * result\ny = (Exp.apply(x) * 3).sum()\ng, = torch.autograd.grad(y, x, create_graph=True)\nh, = torch.autograd.grad(g.sum(), x)\nprint(g)\nprint(h)",
    "dtype_print": X + "print(x.dtype, x.float().dtype, torch.float32, x.dtype == torch.float64)",
    "math_module": X
    + "import math\ny = (x * math.sqrt(2) + math.pi).sum() * math.exp(1)\ny.backward()\nprint(y, math.log(8, 2))",
    "grad_fn_names": X
    + "print(1 - x, 1 / x, x.reciprocal(), x.clamp_min(0), x.norm(), x[0].T, torch.bmm(x[None], x.t()[None]))",
    "arith": X + V + "y = (x * v - v / 3 + 2 ** x - x ** 2 + 1 / (x + 3)).sum()\ny.backward()",
    "pow_tensor": X
    + "y = (x.abs() + 0.5).pow(x).sum() + (x.abs() + 1) ** x[0]\ny.sum().backward()",
    "unary": X
    + "y = (x.exp() + x.sin() * x.cos() + x.tanh() + x.sigmoid() + torch.tan(x / 3)).sum()\ny.backward()",
    "logs": X + "z = x.abs() + 0.1\ny = (z.log() + z.sqrt() + torch.log1p(z)).mean()\ny.backward()",
    "relu_family": X
    + "y = (F.relu(x) + F.leaky_relu(x, 0.2) + F.softplus(x) + F.gelu(x) + F.gelu(x, approximate='tanh') + torch.relu(-x)).sum()\ny.backward()",
    "clamp_sign": X
    + "y = (x.clamp(-1, 1) * 2 + torch.clamp(x, min=0.0) + x.clamp(max=0.5) + x.sign()).sum()\ny.backward()",
    "max_min": X
    + "a, i = x.max(dim=1)\nb = x.min(0).values\ny = a.sum() + b.sum() + x.max() + torch.max(x, torch.zeros_like(x)).sum() + torch.minimum(x, -x).sum()\ny.backward()\nprint(i)",
    "reductions": X
    + "y = x.sum(0).prod() + x.mean(dim=1, keepdim=True).sum() + x.var() + x.std(dim=0).sum() + x.var(1, unbiased=False).sum() + x.norm() + x.norm(p=1, dim=1).sum()\ny.backward()",
    "lse_softmax": X
    + "y = torch.logsumexp(x, dim=1).sum() + (F.softmax(x, dim=1) * torch.arange(3.)).sum() + F.log_softmax(x, dim=0)[0, 1]\ny.backward()",
    "shape": X
    + "y = x.reshape(3, 2).t() @ torch.ones(3)\nz = x.view(-1).unsqueeze(0).squeeze() + x.T.flatten() + x.permute(1, 0).reshape(6)\nw = torch.cat([x, x * 2], dim=0).sum() + torch.stack([x, -x], dim=2).pow(2).sum()\nout = y.sum() + z.sum() + w + x.transpose(0, 1)[1:, :1].sum() + x.expand(4, 2, 3).sum()\nout.backward()",
    "indexing": X
    + "y = x[0] * x[1, 2] + x[:, 1].sum() + x[..., -1].sum() + x[None, 1, ::2].sum() + x[torch.tensor([1, 0, 1])].sum()\ny.sum().backward()",
    "linalg": X
    + V
    + "A = torch.tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]], requires_grad=True)\ny = (x @ A).sum() + torch.mm(x, A).pow(2).sum() + torch.mv(x, v).sum() + torch.dot(v, v) + torch.outer(v, v).sum() + torch.matmul(v, A).sum() + torch.bmm(x.unsqueeze(0), A.unsqueeze(0)).sum()\ny.backward()",
    "losses": X
    + "t = torch.tensor([[0.0, 1.0, 0.5], [1.0, 0.0, 0.25]])\np = torch.sigmoid(x)\ny = F.mse_loss(x, t) + F.binary_cross_entropy(p, t) + F.mse_loss(x, t, reduction='sum') + F.binary_cross_entropy(p, t, reduction='sum') + F.cross_entropy(x, torch.tensor([2, 0])) + F.nll_loss(F.log_softmax(x, dim=1), torch.tensor([1, 1]), reduction='sum') + F.cross_entropy(x, torch.softmax(t, dim=1))\ny.backward()",
    "modules": X
    + "y = torch.nn.Sigmoid()(x).sum() + torch.nn.Tanh()(x).sum() + torch.nn.MSELoss()(x, torch.zeros(2, 3)) + torch.nn.CrossEntropyLoss()(x, torch.tensor([0, 2])) + torch.nn.Softmax(dim=1)(x)[0, 0]\ny.backward()",
    "where": X
    + "y = torch.where(x > 0, x * x, -x).sum() + torch.where(x < 0.5, x, torch.zeros_like(x)).sum()\ny.backward()",
    "broadcast": X
    + V
    + "b = torch.tensor([[1.0], [2.0]], requires_grad=True)\ny = (x * v + b - v / b).sum()\ny.backward()\nprint(b.grad)",
    "vector_backward": X
    + "y = x * x\ny.backward(torch.tensor([[1.0, 0.0, 0.5], [0.0, 2.0, 1.0]]))",
    "accumulate": X
    + "y = (x * 3).sum()\ny.backward(retain_graph=True)\ny.backward()\nprint(x.grad)\nx.grad.zero_()\n(x * x).sum().backward()",
    "retain_grad": X
    + "h = x * 2\nh.retain_grad()\ny = (h * h).sum()\ny.backward()\nprint(h.grad)\nprint(h.is_leaf, x.is_leaf, h.requires_grad)",
    "autograd_grad": X
    + "y = (x ** 3).sum()\ng, = torch.autograd.grad(y, x, create_graph=True)\nh, = torch.autograd.grad(g.sum(), x, retain_graph=True)\nprint(g)\nprint(h)\nx.grad = None\ng.sum().backward()",
    "grad_wrt_intermediate": X
    + "h = x.exp()\ny = (h * x).sum()\ng = torch.autograd.grad(y, [h, x])\nprint(g)\ny2 = x.sum()\nprint(y2)",
    "loop_accum": X
    + "loss = 0\nfor i in range(2):\n    for j in range(3):\n        loss = loss + x[i, j] ** 2 * (i + 1)\nloss.backward()\nprint(loss)",
    "user_function": X
    + "def f(a, b=2.0):\n    c = a * b\n    return c.tanh() + c\ny = f(x).sum() + f(x, 0.5).mean()\ny.backward()",
    "custom_function": X
    + "class Sq(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, a):\n        ctx.save_for_backward(a)\n        return a * a\n    @staticmethod\n    def backward(ctx, g):\n        a, = ctx.saved_tensors\n        return 2 * a * g\ny = Sq.apply(x).sum()\ny.backward()",
    "printing": X
    + "y = x * 2\nprint(y)\nprint(y.sum())\nprint(x.shape, y.shape[1], x.size(), x.size(0), x.dim(), x.numel())\nprint(y.grad_fn is not None, x.grad)\nprint(x.max(dim=1))\nprint(torch.tensor([1e-5, 123.0]), torch.zeros(2, 2), torch.eye(2), torch.arange(4), torch.linspace(0, 1, 3))",
    "float32": "import torch\nx = torch.tensor([[0.1, 0.2], [0.3, 0.4]], dtype=torch.float32, requires_grad=True)\ny = (x.exp() * x).sum()\ny.backward()\nprint(x.grad.dtype == torch.float32)",
    "detach_data": X
    + "d = x.detach() * 2\ny = (x * d).sum() + (x * x.data).sum()\ny.backward()\nprint(d.requires_grad)",
    "gradient_descent": X
    + "for step in range(3):\n    loss = ((x - 1) ** 2).sum()\n    loss.backward()\n    x.data -= 0.1 * x.grad\n    x.grad.zero_()\nprint(x)\nprint(loss)",
    "item_and_numbers": X
    + "s = (x * x).sum()\nval = s.item()\nprint(round(val, 6), float(s) > 1, int(3.7), len(x), abs(-2))\ny = s * val\ny.backward()",
}


def torch_run(src: str) -> tuple[str, dict[str, np.ndarray]]:
    buf = io.StringIO()
    ns: dict = {}
    # gradcli's default dtype is float64: run PyTorch with the same default.
    prev = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(src, "<snippet>", "exec"), ns)  # noqa: S102 - the reference, in tests
    finally:
        torch.set_default_dtype(prev)
    grads = {
        k: v.grad.detach().numpy()
        for k, v in ns.items()
        if isinstance(v, torch.Tensor) and v.is_leaf and v.requires_grad and v.grad is not None
    }
    return buf.getvalue(), grads


def gradcli_run(src: str) -> tuple[str, dict[str, np.ndarray]]:
    out: list[str] = []
    r = api.load(src, "<snippet>", echo=out.append)
    grads = {
        k: v.grad.data
        for k, v in r.env.items()
        if isinstance(v, Tensor) and v.node is None and v.requires_grad and v.grad is not None
    }
    return "".join(out), grads


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_parity(name: str) -> None:
    src = H + SNIPPETS[name]
    expected_out, expected = torch_run(src)
    got_out, got = gradcli_run(src)
    assert got_out == expected_out
    assert sorted(got) == sorted(expected)
    for k in expected:
        assert got[k].dtype == expected[k].dtype, k
        tol = 1e-6 if expected[k].dtype == np.float32 else 1e-9
        np.testing.assert_allclose(got[k], expected[k], rtol=tol, atol=tol * 1e-3, err_msg=k)
