"""float32 activations are PyTorch's to the bit, forward and first-order backward: ATen's
kernels (`gradcli.ops.act32`) with SLEEF's vector functions on whole steps of 32 elements
and the C library's on the tail (`gradcli.core.sleef32`), oneDNN's for the exact gelu of
two elements or more (`gradcli.core.onednn32`). Recorded with torch 2.13
(tests/ops/data/record_act32.py); a live cross-check on larger inputs runs where torch is
installed."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.core import sleef32
from gradcli.surface import composite as C
from gradcli.surface import functional as F
from gradcli.surface import names  # noqa: F401 - installs the tensor methods
from gradcli.surface import nnfunctional as N

DATA = json.loads((Path(__file__).parent / "data" / "act32_results.json").read_text())

OPS = {
    "sigmoid": lambda t: t.sigmoid(),
    "silu": C.silu,
    "gelu": F.gelu,
    "gelu_tanh": lambda t: F.gelu(t, approximate="tanh"),
    "elu": N.elu,
    "selu": N.selu,
    "celu": lambda t: N.celu(t, alpha=0.7),
    "softplus": F.softplus,
    "softplus_b2": lambda t: F.softplus(t, beta=2.0, threshold=5.0),
    "logsigmoid": C.logsigmoid,
    "mish": N.mish,
}


def _draw(shape: list[int], seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng([*shape, seed])
    x = rng.standard_normal(shape) * rng.choice([0.5, 3.0, 12.0], shape)
    far = rng.random(shape) < 0.05
    x = np.where(far, rng.uniform(-110, 110, shape), x).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    return x, g


def _run(name: str, x: np.ndarray, g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    leaf = gradcli.Tensor(x, requires_grad=True)
    y = OPS[name](leaf)
    y.backward(gradcli.Tensor(g))
    return y.numpy(), leaf.grad.numpy()


def _bits(a: np.ndarray) -> list[int]:
    return [int(b) for b in np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)]


@pytest.mark.parametrize(
    "case", DATA["cases"], ids=[f"{c['op']}-{c['shape']}" for c in DATA["cases"]]
)
def test_pytorchs_to_the_bit(case: dict) -> None:
    x, g = _draw(case["shape"], 0)
    y, gx = _run(case["op"], x, g)
    assert _bits(y) == case["y"]
    assert _bits(gx) == case["grad"]


def _rounded(name: str, x: np.ndarray) -> np.ndarray:
    """The forward computed in float64 and rounded once (what gradcli did before)."""
    v = gradcli.Tensor(x.astype(np.float64))
    return OPS[name](v).numpy().astype(np.float32)


def test_the_data_tells_the_kernels_from_rounding() -> None:
    """The recorded bits are not those of the float64 result rounded once (for every op, some
    element differs), so the test above would fail a rounded kernel."""
    for name in OPS:
        cases = [c for c in DATA["cases"] if c["op"] == name]
        differ = sum(_bits(_rounded(name, _draw(c["shape"], 0)[0])) != c["y"] for c in cases)
        assert differ > 0, name


def test_the_loop_tail_is_the_c_librarys() -> None:
    """The last n % 32 elements of a loop go through glibc's expf, not SLEEF's: an input where
    the two differ gives each its own bits by position."""
    xs = np.linspace(-20, 20, 20001, dtype=np.float32)
    with np.errstate(all="ignore"):
        vec = 1 / (sleef32.expf(-xs) + np.float32(1))
        tail = 1 / (np.float32(1) + sleef32.glibc_expf(-xs))
    differ = xs[vec != tail]
    assert differ.size
    v = np.full(33, differ[0], np.float32)  # 32 through the vector loop, 1 through the tail
    y = gradcli.Tensor(v).sigmoid().numpy()
    assert y[0] == y[31] and y[0] != y[32]


def _vec_tail_differ() -> np.float32:
    """An input whose sigmoid differs between the vector loop (SLEEF) and the tail (glibc)."""
    xs = np.linspace(-20, 20, 20001, dtype=np.float32)
    with np.errstate(all="ignore"):
        vec = 1 / (sleef32.expf(-xs) + np.float32(1))
        tail = 1 / (np.float32(1) + sleef32.glibc_expf(-xs))
    return xs[vec != tail][0]


def test_a_strided_view_loops_per_row() -> None:
    """A column slice or `chunk` (rows apart in memory) is TensorIterator's loop per row: a row
    shorter than a vector step goes through the scalar function whole, a longer one is split
    on its own. Taken as one flat loop, the first 32 of 40 elements would be the vector's."""
    v = _vec_tail_differ()
    flat = gradcli.Tensor(np.full(33, v, np.float32)).sigmoid().numpy()
    vec_bits, tail_bits = flat[0], flat[32]
    base = gradcli.Tensor(np.full((2, 60), v, np.float32))
    rows = C.chunk(base, 3, 1)[0].sigmoid().numpy()  # (2, 20), rows 60 apart
    assert (rows == tail_bits).all()
    wide = gradcli.Tensor(np.full((2, 80), v, np.float32))
    cols = wide[:, :33].sigmoid().numpy()  # (2, 33): 32 by vector, 1 by the tail, per row
    assert (cols[:, :32] == vec_bits).all() and (cols[:, 32] == tail_bits).all()
    whole = wide[:, :].sigmoid().numpy()  # contiguous: one loop of 160, all by vector
    assert (whole == vec_bits).all()


def test_an_expanded_row_loops_per_row() -> None:
    """`expand` repeats a row with a stride of 0 between rows: a loop per row (all 20 by the
    scalar function here), not one of 60."""
    v = _vec_tail_differ()
    row = gradcli.Tensor(np.full((1, 20), v, np.float32))
    out = row.expand(3, 20).sigmoid().numpy()
    tail_bits = gradcli.Tensor(np.full(33, v, np.float32)).sigmoid().numpy()[32]
    assert (out == tail_bits).all()


def test_strided_views_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    x, _ = _draw([7, 150], 11)
    for cut in (
        lambda t: t.chunk(3, 1)[1],
        lambda t: t[:, 3:40],
        lambda t: t[::2, :97],
        lambda t: t[:, :1].expand(7, 45),
        lambda t: t.t()[:60],
    ):
        want = cut(torch.tensor(x))
        got = cut(gradcli.Tensor(x))
        for op in ("sigmoid", "tanh", "exp"):
            assert _bits(getattr(got, op)().numpy()) == _bits(getattr(want, op)().numpy()), op


def test_float64_unchanged() -> None:
    """float64 stays computed in float64 (to within an ulp or two of the exact result)."""
    x = np.linspace(-30, 30, 1001)
    for name, exact in (
        ("sigmoid", lambda v: 1 / (1 + math.exp(-v))),
        ("silu", lambda v: v / (1 + math.exp(-v))),
        (
            "logsigmoid",
            lambda v: -math.log1p(math.exp(-v)) if v > 0 else v - math.log1p(math.exp(v)),
        ),
        ("softplus", lambda v: v if v > 20 else math.log1p(math.exp(v))),
        ("mish", lambda v: v * math.tanh(math.log1p(math.exp(v)))),
    ):
        got = OPS[name](gradcli.Tensor(x)).numpy()
        want = np.array([exact(float(v)) for v in x])
        assert np.allclose(got, want, rtol=4e-16, atol=1e-300), name


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    import torch.nn.functional as TF

    torch.set_num_threads(1)
    live = {
        "sigmoid": torch.sigmoid,
        "silu": TF.silu,
        "gelu": TF.gelu,
        "gelu_tanh": lambda t: TF.gelu(t, approximate="tanh"),
        "elu": TF.elu,
        "selu": TF.selu,
        "celu": lambda t: TF.celu(t, alpha=0.7),
        "softplus": TF.softplus,
        "softplus_b2": lambda t: TF.softplus(t, beta=2.0, threshold=5.0),
        "logsigmoid": TF.logsigmoid,
        "mish": TF.mish,
    }
    for n in (3001, 20000 + 17):
        x, g = _draw([n], 7)
        for name, f in live.items():
            leaf = torch.tensor(x, requires_grad=True)
            y = f(leaf)
            y.backward(torch.tensor(g))
            gy, ggx = _run(name, x, g)
            assert _bits(gy) == _bits(y.detach().numpy()), name
            assert _bits(ggx) == _bits(leaf.grad.numpy()), name


# --- layer_norm ----------------------------------------------------------------------------


def _draw_ln(shape: list[int], seed: int) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng([*shape, seed, 3])
    lead = (*shape[:-1], 1)
    x = rng.standard_normal(shape) * rng.choice([0.1, 1.0, 10.0], lead) + rng.choice(
        [0.0, 3.0, -50.0], lead
    )
    w = rng.uniform(0.5, 1.5, shape[-1])
    b = rng.standard_normal(shape[-1])
    g = rng.standard_normal(shape)
    return tuple(a.astype(np.float32) for a in (x, w, b, g))


def _run_ln(case: dict) -> dict:
    x, w, b, g = _draw_ln(case["shape"], 0)
    leaf = gradcli.Tensor(x, requires_grad=True)
    wt = gradcli.Tensor(w, requires_grad=True) if case["affine"] else None
    bt = gradcli.Tensor(b, requires_grad=True) if case["affine"] else None
    y = N.layer_norm(leaf, [case["shape"][-1]], wt, bt)
    y.backward(gradcli.Tensor(g))
    out = {"y": y.numpy(), "grad": leaf.grad.numpy()}
    if case["affine"]:
        out["grad_w"], out["grad_b"] = wt.grad.numpy(), bt.grad.numpy()
    return out


@pytest.mark.parametrize(
    "case",
    DATA["layer_norm"],
    ids=[f"{c['shape']}-{'affine' if c['affine'] else 'plain'}" for c in DATA["layer_norm"]],
)
def test_layer_norm_pytorchs_to_the_bit(case: dict) -> None:
    got = _run_ln(case)
    for key, value in got.items():
        assert _bits(value) == case[key], key


def test_layer_norm_data_tells_the_kernel_from_rounding() -> None:
    """The recorded values are not the float64 result rounded once (the test above would fail
    a layer_norm computed so), nor are the gradients."""
    differ = {"y": 0, "grad": 0}
    for case in DATA["layer_norm"]:
        x, w, b, g = _draw_ln(case["shape"], 0)
        leaf = gradcli.Tensor(x.astype(np.float64), requires_grad=True)
        wt = gradcli.Tensor(w.astype(np.float64)) if case["affine"] else None
        bt = gradcli.Tensor(b.astype(np.float64)) if case["affine"] else None
        y = N.layer_norm(leaf, [case["shape"][-1]], wt, bt)
        y.backward(gradcli.Tensor(g.astype(np.float64)))
        differ["y"] += _bits(y.numpy()) != case["y"]
        differ["grad"] += _bits(leaf.grad.numpy()) != case["grad"]
    assert differ["y"] and differ["grad"]


def test_layer_norm_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    import torch.nn.functional as TF

    torch.set_num_threads(1)
    for shape in ([5, 33], [2, 3, 129], [4, 640]):
        for affine in (False, True):
            x, w, b, g = _draw_ln(shape, 5)
            leaf = torch.tensor(x, requires_grad=True)
            wt = torch.tensor(w, requires_grad=True) if affine else None
            bt = torch.tensor(b, requires_grad=True) if affine else None
            y = TF.layer_norm(leaf, [shape[-1]], wt, bt)
            y.backward(torch.tensor(g))
            got = _run_ln({"shape": shape, "affine": affine})
            assert _bits(got["y"]) == _bits(y.detach().numpy())
            assert _bits(got["grad"]) == _bits(leaf.grad.numpy())
            if affine:
                assert _bits(got["grad_w"]) == _bits(wt.grad.numpy())
                assert _bits(got["grad_b"]) == _bits(bt.grad.numpy())
