"""Gradients taken with create_graph=True through sigmoid, tanh and softplus are PyTorch's to
the bit: its fused backward kernels (sigmoid_backward, tanh_backward, softplus_backward) are
the recorded ops (`SigmoidBackwardBackward0`...), differentiated by PyTorch's formulas operation
by operation. Recorded with torch 2.13 (tests/ops/data/record_act_double.py): whole chains from
a float32 input (first, second and third derivatives, grad_fn names) over lengths 1..40 and odd
shapes, and the kernels themselves in float32 and float64 with their gradients in both inputs.
The second derivatives are checked against central differences in float64; a live
cross-check runs where torch is installed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core.op import apply
from gradcli.ops import elementwise as E
from gradcli.surface import composite as C
from gradcli.surface import functional as F
from gradcli.surface import names  # noqa: F401 - installs the tensor methods
from gradcli.surface import nnfunctional as N

DATA = json.loads((Path(__file__).parent / "data" / "act_double_results.json").read_text())

CHAIN = {
    "sigmoid": lambda t: t.sigmoid(),
    "tanh": lambda t: t.tanh(),
    "softplus": F.softplus,
    "softplus_b2": lambda t: F.softplus(t, beta=2.0, threshold=5.0),
    "softplus_b05": lambda t: F.softplus(t, beta=0.5, threshold=1.0),
    "silu": C.silu,
    "elu": N.elu,
    "selu": N.selu,
    "celu": lambda t: N.celu(t, alpha=0.7),
    "gelu": F.gelu,
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
    "logsigmoid": C.logsigmoid,
    "mish": N.mish,
}
KERNELS = {
    "sigmoid_backward": (E.sigmoid_backward, {}, "y"),
    "tanh_backward": (E.tanh_backward, {}, "y"),
    "softplus_backward": (E.softplus_backward, {"beta": 1.0, "threshold": 20.0}, "x"),
    "softplus_backward_b2": (E.softplus_backward, {"beta": 2.0, "threshold": 5.0}, "x"),
}


def _draw(shape: list, seed: int, count: int, dtype=np.float32) -> list[np.ndarray]:
    dims = [d for d in shape if d != "t"]
    rng = np.random.default_rng([*dims, seed])
    x = rng.standard_normal(dims) * rng.choice([0.5, 3.0, 8.0], dims)
    far = rng.random(dims) < 0.05
    x = np.where(far, rng.uniform(-40, 40, dims), x)
    out = [x] + [rng.standard_normal(dims) for _ in range(count - 1)]
    out = [a.astype(dtype) for a in out]
    if shape[-1] == "t":
        out = [a.T for a in out]
    return out


def _hex(t: gradcli.Tensor) -> str:
    return np.ascontiguousarray(t.numpy()).tobytes().hex()


def _name(t: gradcli.Tensor) -> str | None:
    return None if t.grad_fn is None else t.grad_fn.name()


def _chain(op: str, x: np.ndarray, v1, v2, v3) -> tuple:
    leaf = gradcli.Tensor(x, requires_grad=True)
    y = CHAIN[op](leaf)
    (g,) = gradcli.grad(y, leaf, gradcli.Tensor(v1), create_graph=True)
    (h,) = gradcli.grad(g, leaf, gradcli.Tensor(v2), create_graph=True)
    (t,) = gradcli.grad(h, leaf, gradcli.Tensor(v3))
    return g, h, t


def _ids(cases: list, *keys: str) -> list[str]:
    return ["-".join(str(c[k]) for k in keys) for c in cases]


@pytest.mark.parametrize("case", DATA["chain"], ids=_ids(DATA["chain"], "op", "shape"))
def test_chain_is_pytorchs_to_the_bit(case: dict) -> None:
    g, h, t = _chain(case["op"], *_draw(case["shape"], case.get("seed", 0), 4))
    assert (_name(g), _name(h)) == (case["g_fn"], case["h_fn"])
    if case["op"] == "gelu" and (case["shape"] == [1] or case["shape"][-1] == "t"):
        # the exact gelu's first-order kernel of one element or of a transposed input is not
        # PyTorch's to the bit (with or without create_graph; README "Where gradcli differs")
        want = np.frombuffer(bytes.fromhex(case["g"]), np.float32).reshape(g.shape)
        np.testing.assert_allclose(g.numpy(), want, rtol=1e-6, atol=1e-30)
    else:
        assert _hex(g) == case["g"]
    assert _hex(h) == case["h"]
    if case["op"] in ("silu", "gelu_tanh"):
        # silu's and the tanh gelu's third derivatives are not PyTorch's to the bit (silu's
        # terms are summed in another order than PyTorch's engine, gelu's runs float32 cosh
        # and pow; README "Where gradcli differs"): equal to float32 rounding
        want = np.frombuffer(bytes.fromhex(case["t"]), np.float32).reshape(t.shape)
        np.testing.assert_allclose(t.numpy(), want, rtol=1e-5, atol=1e-6)
        return
    assert _hex(t) == case["t"]


def _kernel_inputs(case: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    op, dt = case["op"], np.dtype(case["dtype"]).type
    a, go, h = _draw(case["shape"], 1, 3, dt)
    if KERNELS[op][2] == "y":
        # as the recording made it, by arithmetic alone (NumPy's exp differs between CPUs)
        y = a / (1 + np.abs(a))
        a = y if op.startswith("tanh") else (0.5 + y / 2).astype(dt)
    return a, go, h


@pytest.mark.parametrize("case", DATA["kernel"], ids=_ids(DATA["kernel"], "op", "dtype", "shape"))
def test_kernel_and_its_gradients_are_pytorchs_to_the_bit(case: dict) -> None:
    record, params, _ = KERNELS[case["op"]]
    a, go, h = _kernel_inputs(case)
    ta = gradcli.Tensor(a, requires_grad=True)
    tg = gradcli.Tensor(go, requires_grad=True)
    out = apply(record, tg, ta, **params)
    dg, da = gradcli.grad(out, (tg, ta), gradcli.Tensor(h))
    if case["op"].startswith("softplus") and case["dtype"] == "float64":
        # float64 exp is NumPy's, PyTorch's is SLEEF's (vector loop) or the C library's
        # (tail): ~5% of the results differ in the last bit (README: "Where gradcli differs")
        for got, key in ((out, "out"), (dg, "d_grad"), (da, "d_in")):
            want = np.frombuffer(bytes.fromhex(case[key]), np.float64).reshape(got.shape)
            np.testing.assert_allclose(got.numpy(), want, rtol=4e-16, atol=1e-300)
        return
    assert _hex(out) == case["out"]
    assert _hex(dg) == case["d_grad"]
    assert _hex(da) == case["d_in"]


def test_the_data_tells_the_fused_kernels_from_the_composition() -> None:
    """The recorded first gradients are not those of the composition gradcli used before
    (g * out * (1 - out), g * (1 - out * out) rounded twice), so the chain test would fail it."""
    differ = {"sigmoid": 0, "tanh": 0}
    for case in DATA["chain"]:
        if case["op"] not in differ:
            continue
        x, v1 = _draw(case["shape"], 0, 4)[:2]
        out = CHAIN[case["op"]](gradcli.Tensor(x)).numpy()
        old = v1 * out * (1 - out) if case["op"] == "sigmoid" else v1 * (1 - out * out)
        differ[case["op"]] += _hex(gradcli.Tensor(old.astype(np.float32))) != case["g"]
    assert all(n > 5 for n in differ.values()), differ


def _fd_second(op: str, x: np.ndarray, v1: np.ndarray, v2: np.ndarray) -> np.ndarray:
    """d/dx <v2, d/dx <v1, f(x)>> by central differences of the first gradient, in float64."""
    eps = 1e-6
    flat = x.reshape(-1)
    out = np.empty(flat.size)
    for i in range(flat.size):
        vals = []
        for s in (1, -1):
            xp = flat.copy()
            xp[i] += s * eps
            leaf = gradcli.Tensor(xp.reshape(x.shape), requires_grad=True)
            (g,) = gradcli.grad(CHAIN[op](leaf), leaf, gradcli.Tensor(v1))
            vals.append(float((g.numpy() * v2).sum()))
        out[i] = (vals[0] - vals[1]) / (2 * eps)
    return out.reshape(x.shape)


@pytest.mark.parametrize("op", list(CHAIN))
@pytest.mark.parametrize("shape", [[7], [3, 4]])
def test_second_derivative_matches_central_differences(op: str, shape: list) -> None:
    x, v1, v2, _ = (a.astype(np.float64) for a in _draw(shape, 5, 4))
    x = np.clip(x, -4, 4)  # away from softplus' thresholds (kinks of its second derivative)
    if op == "softplus_b05":
        x = np.where(np.abs(x * 0.5 - 1.0) < 0.05, x + 0.3, x)
    elif op == "softplus_b2":
        x = np.where(np.abs(x * 2.0 - 5.0) < 0.05, x + 0.3, x)
    leaf = gradcli.Tensor(x, requires_grad=True)
    (g,) = gradcli.grad(CHAIN[op](leaf), leaf, gradcli.Tensor(v1), create_graph=True)
    (h,) = gradcli.grad(g, leaf, gradcli.Tensor(v2))
    want = _fd_second(op, x, v1, v2)
    np.testing.assert_allclose(h.numpy(), want, rtol=1e-6, atol=1e-7)


def test_third_derivative_of_sigmoid_is_the_closed_form() -> None:
    """s''' = s (1 - s) (1 - 6 s + 6 s^2), through sigmoid_backward's own double backward."""
    x = np.linspace(-5, 5, 11)
    leaf = gradcli.Tensor(x, requires_grad=True)
    (g,) = gradcli.grad(leaf.sigmoid().sum(), leaf, create_graph=True)
    (h,) = gradcli.grad(g.sum(), leaf, create_graph=True)
    (t,) = gradcli.grad(h.sum(), leaf)
    s = 1 / (1 + np.exp(-x))
    np.testing.assert_allclose(t.numpy(), s * (1 - s) * (1 - 6 * s + 6 * s * s), atol=1e-14)
    assert g.grad_fn.name() == "SigmoidBackwardBackward0"
    assert h.grad_fn.name() == "SigmoidBackwardBackward0"  # as PyTorch 2.13


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    tf = torch.nn.functional
    fns = {
        "sigmoid": torch.sigmoid,
        "tanh": torch.tanh,
        "softplus": tf.softplus,
        "softplus_b2": lambda t: tf.softplus(t, beta=2.0, threshold=5.0),
        "softplus_b05": lambda t: tf.softplus(t, beta=0.5, threshold=1.0),
        "silu": tf.silu,
    }
    for op, f in fns.items():
        for shape in ([257], [64, 9], [3, 5, 11, "t"]):
            x, v1, v2, v3 = _draw(shape, 7, 4)
            leaf = torch.tensor(x, requires_grad=True)
            (g,) = torch.autograd.grad(f(leaf), leaf, torch.tensor(v1), create_graph=True)
            (h,) = torch.autograd.grad(g, leaf, torch.tensor(v2), create_graph=True)
            (t,) = torch.autograd.grad(h, leaf, torch.tensor(v3))
            ours = _chain(op, x, v1, v2, v3)
            for k, (a, b) in enumerate(zip(ours, (g, h, t), strict=True)):
                want = b.detach().numpy()
                if op == "silu" and k == 2:  # see test_chain_is_pytorchs_to_the_bit
                    np.testing.assert_allclose(a.numpy(), want, rtol=1e-5, atol=1e-6)
                    continue
                assert _hex(a) == np.ascontiguousarray(want).tobytes().hex(), (op, shape, k)


TARGET = np.linspace(-1.0, 1.0, 7).astype(np.float32)


def _mse(t: gradcli.Tensor, reduction: str) -> gradcli.Tensor:
    from gradcli.surface import losses

    target = gradcli.Tensor(np.broadcast_to(TARGET, t.shape).copy())
    return losses.mse_loss(t, target, reduction=reduction)


SECOND = {
    "hardtanh": lambda t: N.hardtanh(t, -1.5, 2.0),
    "relu6": N.relu6,
    "leaky_relu": lambda t: F.leaky_relu(t, 0.2),
    "softshrink": lambda t: N.softshrink(t, 0.7),
    "hardshrink": lambda t: N.hardshrink(t, 0.7),
    "threshold": lambda t: N.threshold(t, 0.3, -2.0),
    "hardswish": N.hardswish,
    "mse_mean": lambda t: _mse(t, "mean") * 0.3,
    "mse_sum": lambda t: _mse(t, "sum") * 0.3,
    "mse_none": lambda t: _mse(t, "none"),
}


@pytest.mark.parametrize("case", DATA["second"], ids=_ids(DATA["second"], "op", "shape"))
def test_piecewise_and_mse_gradients_are_pytorchs(case: dict) -> None:
    """The backward kernels of hardtanh, leaky_relu, the shrinks, threshold, hardswish and
    mse_loss are their own nodes under create_graph=True: the gradient requires grad through
    x (a second derivative of zeros where PyTorch gives zeros, not an error), with PyTorch's
    values (+0 where the slope is 0; mse's 2 / n rounded once, then the products)."""
    x, v1, v2 = _draw(case["shape"], 2, 3)
    leaf = gradcli.Tensor(x, requires_grad=True)
    y = SECOND[case["op"]](leaf)
    up = gradcli.Tensor(v1.reshape(-1)[: y.numel()].reshape(y.shape))
    (g,) = gradcli.grad(y, leaf, up, create_graph=True)
    (h,) = gradcli.grad(g, leaf, gradcli.Tensor(v2))
    assert _name(g) == case["g_fn"]
    assert (_hex(g), _hex(h)) == (case["g"], case["h"])
