"""A change in place through any view of a tensor that requires grad is recorded on the tensor
(PyTorch's CopySlices; the view then AsStridedBackward0): `y.t().add_(1)`,
`y.diagonal().mul_(3)`, `y.view(-1)[::4] = 0`, `h.diagonal().copy_(b)`. It was refused for
views other than basic indexing. The gradients are checked against central differences of
the same computation written with NumPy (the view's places found by NumPy's own view), and a
copy into a tensor of a value that requires grad is that value (it was twice it)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from gradcli.lang.program import parse

# (gradcli's view of y, NumPy's view of an array of the same shape (3, 4))
VIEWS = {
    "diagonal": ("y.diagonal()", lambda a: np.einsum("ii->i", a[:, :3])),
    "view": ("y.view(-1)", lambda a: a.reshape(-1)),
    "t": ("y.t()", lambda a: a.T),
    "column": ("y[:, 1]", lambda a: a[:, 1]),
    "narrow": ("y.narrow(1, 1, 2)", lambda a: a[:, 1:3]),
    "unsqueeze": ("y.unsqueeze(0)", lambda a: a[None]),
    "view_row": ("y.view(2, 6)[0]", lambda a: a.reshape(2, 6)[0]),
    "reshape_step": ("y.reshape(12)[::5]", lambda a: a.reshape(12)[::5]),
    "transpose_slice": ("y.transpose(0, 1)[1:]", lambda a: a.T[1:]),
    "as_strided": ("y.as_strided((2,), (5,))", lambda a: a.reshape(-1)[::5][:2]),
    "movedim": ("y.movedim(0, 1)", lambda a: a.T),
    "flatten_step": ("y.flatten()[1::3]", lambda a: a.reshape(-1)[1::3]),
}

# (gradcli's change of the view v, NumPy's change of the view array)
CHANGES = {
    "mul": ("v.mul_(3)", lambda v, c: v.__imul__(3)),
    "mul_by": ("v.mul_(c)", lambda v, c: v.__imul__(c)),
    "addcmul": ("v.addcmul_(c, c, value=0.5)", lambda v, c: v.__iadd__(0.5 * c * c)),
    "exp": ("v.exp_()", lambda v, c: np.exp(v, out=v)),
    "copy": ("v.copy_(c)", lambda v, c: np.copyto(v, c)),
    "fill": ("v.fill_(2.5)", lambda v, c: v.fill(2.5)),
}


def run(text: str) -> str:
    return "".join(parse("import torch\n" + text, "t.py").run(dtype="float64").output)


def numbers(text: str) -> np.ndarray:
    return np.array([float(v) for v in re.findall(r"-?\d+\.\d+(?:e[-+]?\d+)?", text)])


def loss(w: np.ndarray, c_in: np.ndarray, view, change) -> float:
    y = np.sin(w)
    v = view(y)
    c = np.cos(c_in)[: v.size].reshape(v.shape) if v.size else c_in[:0]
    change(v, c)
    return float((y * np.arange(12.0).reshape(3, 4)).sum() + (c_in * c_in).sum() * 0)


@pytest.mark.parametrize("change", sorted(CHANGES))
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_a_change_through_a_view_is_differentiated_as_central_differences(
    view: str, change: str
) -> None:
    gview, nview = VIEWS[view]
    gchange, nchange = CHANGES[change]
    rng = np.random.default_rng(abs(hash((view, change))) % 2**32)
    w0 = rng.uniform(-1, 1, (3, 4))
    c0 = rng.uniform(-1, 1, 12)
    text = (
        f"w = torch.tensor({w0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
        f"k = torch.tensor({c0.tolist()}, dtype=torch.float64, requires_grad=True)\n"
        "y = w.sin()\n"
        f"v = {gview}\n"
        "c = k.cos()[: v.numel()].reshape(v.shape)\n"
        f"{gchange}\n"
        "print(y.grad_fn.name(), v.grad_fn.name())\n"
        "out = (y * torch.arange(12.0, dtype=torch.float64).view(3, 4)).sum()\n"
        "print(out.item())\n"
        "out.backward()\n"
        "print(w.grad.flatten().tolist())\n"
        "print(k.grad.tolist() if k.grad is not None else [0.0] * 12)\n"
    )
    got = run(text)
    assert got.splitlines()[0] == "torch::autograd::CopySlices AsStridedBackward0", got
    values = numbers("\n".join(got.splitlines()[1:]))
    expect = loss(w0, c0, nview, nchange)
    assert values[0] == pytest.approx(expect, rel=1e-12, abs=1e-12)
    eps = 1e-6
    gw = np.zeros(12)
    for i in range(12):
        d = np.zeros(12)
        d[i] = eps
        gw[i] = (
            loss(w0 + d.reshape(3, 4), c0, nview, nchange)
            - loss(w0 - d.reshape(3, 4), c0, nview, nchange)
        ) / (2 * eps)

    def loss_c(cc: np.ndarray) -> float:
        y = np.sin(w0)
        v = nview(y)
        nchange(v, np.cos(cc)[: v.size].reshape(v.shape))
        return float((y * np.arange(12.0).reshape(3, 4)).sum())

    gc = np.array(
        [
            (loss_c(c0 + eps * np.eye(12)[i]) - loss_c(c0 - eps * np.eye(12)[i])) / (2 * eps)
            for i in range(12)
        ]
    )
    np.testing.assert_allclose(values[1:13], gw, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(values[13:25], gc, rtol=1e-6, atol=1e-7)


def test_a_tensor_made_to_require_grad_through_a_view() -> None:
    """`h.diagonal().copy_(b)` into zeros: h is b on its diagonal, and b's gradient flows."""
    got = run(
        "b = torch.tensor([1.5, -2.0, 0.25], dtype=torch.float64, requires_grad=True)\n"
        "h = torch.zeros(3, 3, dtype=torch.float64)\n"
        "h.diagonal().copy_(b)\n"
        "print(h.tolist(), h.grad_fn.name())\n"
        "(h * torch.arange(9.0, dtype=torch.float64).view(3, 3)).sum().backward()\n"
        "print(b.grad.tolist())\n"
    )
    lines = got.splitlines()
    assert lines[0].startswith("[[1.5, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 0.25]]")
    assert lines[1] == "[0.0, 4.0, 8.0]"


def test_copy_into_a_tensor_is_the_value_itself() -> None:
    """z.copy_(b), z.fill_(b0) and z[0].copy_(b) with b requiring grad wrote 2 * b."""
    got = run(
        "b = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)\n"
        "z = torch.zeros(3); z.copy_(b); print(z.tolist())\n"
        "f = torch.zeros(2); f.fill_(b[1]); print(f.tolist())\n"
        "h = torch.zeros(2, 3); h[0].copy_(b); print(h.tolist())\n"
        "m = torch.tensor([-0.0, 1.0]); m.copy_(torch.tensor([-0.0, 2.0], requires_grad=True))\n"
        "print(m)\n"
        "(z * 2 + h.sum(0) * 3).sum().backward(); print(b.grad.tolist())\n"
    )
    assert got.splitlines() == [
        "[1.0, -2.0, 3.0]",
        "[-2.0, -2.0]",
        "[[1.0, -2.0, 3.0], [0.0, 0.0, 0.0]]",
        "tensor([-0., 2.], grad_fn=<CopyBackwards>)",
        "[5.0, 5.0, 5.0]",
    ]


def test_a_temporary_view_changed_in_place_then_backward() -> None:
    """`y[0].mul_(3)` on a view nobody keeps, then backward: an internal error before."""
    got = run(
        "w = torch.ones(2, 3, requires_grad=True)\n"
        "y = w * 2\n"
        "y[0].mul_(3)\n"
        "y.t()[1].add_(1)\n"
        "y.sum().backward()\n"
        "print(w.grad.tolist())\n"
    )
    assert got.strip() == "[[6.0, 6.0, 6.0], [2.0, 2.0, 2.0]]"


def test_a_view_whose_elements_share_places_is_refused_in_plain_words() -> None:
    from gradcli.base.errors import GradcliError

    with pytest.raises(GradcliError, match="share memory places"):
        run("w = torch.ones(3, requires_grad=True)\ny = w * 2\ny.unfold(0, 2, 1).mul_(2)\n")
