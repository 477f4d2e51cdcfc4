"""jacrev computes the rows of a large Jacobian that is not differentiated again in batched
backward passes (PyTorch's vmap over the VJP) instead of one pass per row. The numbers agree
with the rows one at a time up to float32 rounding (float32 kernels round by position in a
vector loop, products by shape: PyTorch's own batched numbers differ from both in the last
bits); passes that would run the program's own code (a custom Function's backward, hooks)
stay one row at a time; small Jacobians keep one pass a row (their bits unchanged)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gradcli.lang.program import parse
from gradcli.surface import func

PROGRAMS = {
    "linear_tanh": """
torch.manual_seed(0)
w = torch.randn(7, 5); b = torch.randn(7); x = torch.randn(5)
def predict(w, b, x):
    return torch.nn.functional.linear(x, w, b).tanh()
print(jacrev(predict, argnums=2)(w, b, x).tolist())
jw, jb = jacrev(predict, argnums=(0, 1))(w, b, x)
print(jw.tolist(), jb.tolist())
print(jacrev(jacrev(predict, argnums=2), argnums=2)(w, b, x).tolist())
print(hessian(predict, argnums=2)(w, b, x).tolist())
""",
    "several_outputs_and_aux": """
torch.manual_seed(1)
A = torch.randn(4, 6)
def h(x, y):
    z = A @ x.sin()
    return (z * y[:4], z.softmax(0), (x * y).cumsum(0)), z.sum()
x = torch.randn(6)
y = torch.randn(6)
(j, aux) = jacrev(h, argnums=(0, 1), has_aux=True)(x, y)
for block in j:
    print([t.tolist() for t in block])
print(aux.item())
""",
    "unused_input_and_matrix_output": """
torch.manual_seed(2)
def f(a, b):
    return (a @ a.t()).exp() / 3
a = torch.randn(3, 4); b = torch.randn(2)
ja, jb = jacrev(f, argnums=(0, 1))(a, b)
print(ja.tolist(), jb.tolist())
""",
    "module_parameters": """
torch.manual_seed(3)
m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.GELU(), torch.nn.Linear(8, 3))
params = {k: v.detach() for k, v in m.named_parameters()}
jp = jacrev(lambda p, x: torch.func.functional_call(m, p, (x,)))(params, torch.randn(5, 4))
for k, v in jp.items():
    print(k, v.tolist())
""",
    "under_vmap": """
torch.manual_seed(4)
W = torch.randn(5, 3)
def f(x):
    return (W @ x).sigmoid() * x.sum()
print(vmap(jacrev(f))(torch.randn(6, 3)).tolist())
""",
    "custom_function_and_hook": """
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        print("backward", tuple(g.shape))
        return 3 * x ** 2 * g
def f(x):
    return Cube.apply(x * 2).sin()
print(jacrev(f)(torch.tensor([0.1, 0.2, 0.3])).tolist())
def k(x):
    y = x * 3
    y.register_hook(lambda g: print("hook", g.tolist()))
    return y.cos()
print(jacrev(k)(torch.tensor([0.5, -1.0])).tolist())
""",
}


PROGRAMS["elementwise_chain"] = """
torch.manual_seed(6)
def f(x, y):
    return ((x.sin() * y).exp() / (1 + x * x)).tanh() * x.sigmoid()
x = torch.randn(9); y = torch.randn(9)
jx, jy = jacrev(f, argnums=(0, 1))(x, y)
print(jx.tolist(), jy.tolist())
print(jacrev(jacrev(lambda v: v.sigmoid() * v.exp() / (2 + v.cos())))(x).tolist())
"""
PROGRAMS["scans"] = """
torch.manual_seed(9)
x = torch.randn(9); y = torch.randn(9)
print(jacrev(lambda x: ((x.sin() * y).exp().cumsum(0) / (1 + x * x)).softmax(0))(x).tolist())
print(jacrev(jacrev(lambda v: v.sigmoid() * v.exp() / (2 + v.cos())))(x).tolist())
print(jacrev(jacrev(lambda v: v.sigmoid() * v.exp().cumsum(0)))(x).tolist())
"""
PROGRAMS["reductions"] = """
torch.manual_seed(8)
x = torch.randn(9)
print(jacrev(jacrev(lambda v: (v.sigmoid() * v).sum() * v))(x).tolist())
print(hessian(lambda v: (v.sin() * v.cos()).prod())(x).tolist())
"""
PROGRAMS["under_vmap_elementwise"] = """
torch.manual_seed(7)
def f(x):
    return (x.sin() * x.exp()) / (1.5 + x.tanh())
print(vmap(jacrev(f))(torch.randn(4, 5)).tolist())
"""


def run(text: str, dtype: str) -> str:
    head = "import torch\nfrom torch.func import jacrev, hessian, vmap\n"
    return "".join(parse(head + text, "t.py").run(dtype=dtype).output)


def numbers(text: str) -> np.ndarray:
    return np.array([float(v) for v in re.findall(r"-?\d+\.\d+(?:e[-+]?\d+)?", text)])


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_batched_rows_agree_with_the_rows_one_at_a_time(
    name: str, dtype: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    batched_calls = []
    real = func._batched_rows

    def counting(o, flat_in, *outs):
        got = real(o, flat_in, *outs)
        batched_calls.append(got is not None)
        return got

    monkeypatch.setattr(func, "_batched_rows", counting)
    monkeypatch.setattr(func, "_BATCH_FROM", 0)  # every Jacobian batched, however small
    batched = run(PROGRAMS[name], dtype)
    monkeypatch.setattr(func, "_BATCH_ROWS", False)
    one_by_one = run(PROGRAMS[name], dtype)
    if name == "custom_function_and_hook":
        # the Function's backward and the hook see one row's gradient, as without batching
        assert not any(batched_calls)
        assert "backward (3,)" in batched and "hook [" in batched
    else:
        assert any(batched_calls)  # (the batched path was taken)
    a, b = numbers(batched), numbers(one_by_one)
    assert a.size == b.size and a.size > 10
    rtol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(a, b, rtol=rtol, atol=rtol * np.abs(b).max())


def test_a_small_jacobian_keeps_one_pass_a_row(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = func._batched_rows
    monkeypatch.setattr(func, "_batched_rows", lambda *a: calls.append(real(*a)))
    run(PROGRAMS["linear_tanh"], "float32")
    assert calls and all(c is None for c in calls)


def test_rows_per_pass_keep_the_pass_small(monkeypatch: pytest.MonkeyPatch) -> None:
    # a budget of 64 elements: several passes of a few rows each, the same numbers
    monkeypatch.setattr(func, "_BATCH_FROM", 0)
    text = PROGRAMS["elementwise_chain"]
    whole = run(text, "float32")
    monkeypatch.setattr(func, "_ROW_BUDGET", 64)
    assert run(text, "float32") == whole
