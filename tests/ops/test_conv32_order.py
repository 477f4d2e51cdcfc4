"""Float32 convolutions print PyTorch's bits: ATen's backend for the shape (slow_conv2d's im2col
and MKL sgemm, or oneDNN's direct, 1x1 and depthwise kernels) and its order of summation
(gradcli/ops/conv_order.py). Recorded with torch 2.13 (tests/ops/data/record_conv32.py)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.ops import conv_order
from gradcli.ops.conv import _conv_fwd
from gradcli.surface import nnfunctional as NF

CASES = json.loads((Path(__file__).parent / "data" / "conv32_results.json").read_text())


def _draw(shape, seed: int) -> np.ndarray:
    return np.random.default_rng([*shape, seed]).standard_normal(shape).astype(np.float32)


def _out(size, k, st, dl, p) -> int:
    return (size + 2 * p - dl * (k - 1) - 1) // st + 1


def _run(case: list, x, w, b) -> np.ndarray:
    kernel, st, dl, p, g, spatial = case[4], case[5], case[6], case[7], case[8], case[9]
    d = len(kernel)
    out = tuple(_out(s, k, st, dl, p) for s, k in zip(spatial, kernel))
    return _conv_fwd(x, w, b, stride=(st,) * d, dilation=(dl,) * d, pad=(p,) * d, out=out, groups=g)


def _kind(case: list) -> str:
    kernel, st, dl, p, g, spatial = case[4], case[5], case[6], case[7], case[8], case[9]
    d = len(kernel)
    n, c, o = case[1], case[2], case[3]
    x_shape, w_shape = (n, c, *spatial), (o, c // g, *kernel)
    kind = conv_order.backend(x_shape, w_shape, (st,) * d, (dl,) * d, g)
    if kind != "onednn":
        return kind
    out = tuple(_out(s, k, st, dl, p) for s, k in zip(spatial, kernel))
    plan = conv_order._onednn_plan(x_shape, w_shape, (st,) * d, (p,) * d, (dl,) * d, g, out)
    assert plan is not None
    if g > 1:
        return "depthwise" if plan[0] == 1 and plan[1] else "grouped"
    return "1x1" if plan[1] else "direct"


def _inputs(case: list, seed: int):
    n, c, o, kernel, g, spatial = case[1], case[2], case[3], case[4], case[8], case[9]
    x = _draw((n, c, *spatial), seed)
    w = _draw((o, c // g, *kernel), seed + 1)
    b = _draw((o,), seed + 2) if case[10] else None
    return x, w, b


@pytest.mark.parametrize("rec", CASES, ids=lambda r: f"{r['case'][0]}-{r['seed']}")
def test_recorded(rec):
    case = rec["case"]
    assert _kind(case) == case[0]  # the backend ATen picks for the shape
    y = _run(case, *_inputs(case, rec["seed"]))
    assert y.dtype == np.float32
    got = hashlib.sha256(np.ascontiguousarray(y).tobytes()).hexdigest()[:24]
    assert got == rec["sha"]


def _sha(a: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(a, dtype=np.float32).tobytes()).hexdigest()[:24]


def _backward_mirrored(case: list) -> bool:
    kernel, st, dl, p, g, spatial = case[4], case[5], case[6], case[7], case[8], case[9]
    d = len(kernel)
    x_shape, w_shape = (case[1], case[2], *spatial), (case[3], case[2] // g, *kernel)
    out = tuple(_out(s, k, st, dl, p) for s, k in zip(spatial, kernel))
    geo = ((st,) * d, (dl,) * d)
    if conv_order.slow_backward(x_shape, w_shape, *geo, g):
        return True
    return conv_order.onednn_backward(x_shape, w_shape, *geo, (p,) * d, out, g)


GRAD_CASES = [r for r in CASES if _backward_mirrored(r["case"])]


def test_grad_cases_cover_the_direct_kernel():
    # every recorded direct-kernel case has its gradients mirrored (strided: not the input's)
    want = [r for r in CASES if r["case"][0] == "direct"]
    assert len(want) >= 10 and all(r in GRAD_CASES for r in want)
    assert sum(r["case"][5] > 1 for r in want) >= 3
    # and slow_conv2d's of one sample
    slow = [r for r in CASES if r["case"][0] == "slow" and r["case"][1] == 1]
    assert len(slow) >= 6 and all(r in GRAD_CASES for r in slow)


@pytest.mark.parametrize("rec", GRAD_CASES, ids=lambda r: f"{r['case'][0]}-{r['seed']}")
def test_recorded_gradients(rec):
    # the input, weight and bias gradients through gradcli's autograd (oneDNN's backward order)
    case = rec["case"]
    x, w, b = _inputs(case, rec["seed"])
    leaves = [gradcli.Tensor(a, requires_grad=True) for a in (x, w, b) if a is not None]
    conv = NF.conv1d if len(case[4]) == 1 else NF.conv2d
    bias = leaves[2] if b is not None else None
    y = conv(leaves[0], leaves[1], bias, stride=case[5], dilation=case[6], padding=case[7])
    g = _draw(tuple(y.shape), rec["seed"] + 3)
    (y * gradcli.Tensor(g)).sum().backward()
    got = [_sha(t.grad.numpy()) for t in leaves]
    if case[5] > 1 and case[0] != "slow":  # strided oneDNN: the input gradient's sum in float64
        got, want = got[1:], rec["grads"][1:]
    else:
        want = rec["grads"]
    assert got == want


def test_float64_unchanged():
    # float64 convs keep their one rounding of the float64 sum (no float32 order applies)
    x, w, b = _inputs(CASES[0]["case"], 0)
    y = _run(CASES[0]["case"], x.astype(np.float64), w.astype(np.float64), b.astype(np.float64))
    assert y.dtype == np.float64
    cols = np.lib.stride_tricks.sliding_window_view(
        np.pad(x[0], ((0, 0), (1, 1), (1, 1))), (3, 3), axis=(1, 2)
    )
    ref = (
        np.einsum("chwij,ocij->ohw", cols.astype(np.float64), w.astype(np.float64))
        + b[:, None, None]
    )
    np.testing.assert_allclose(y[0], ref, rtol=1e-12, atol=1e-12)


def _check_live_gradients(torch, case, x, w, b, seed) -> None:
    ts = [torch.from_numpy(a).requires_grad_() for a in (x, w, b) if a is not None]
    conv = torch.nn.functional.conv1d if len(case[4]) == 1 else torch.nn.functional.conv2d
    bias = ts[2] if b is not None else None
    y = conv(ts[0], ts[1], bias, stride=case[5], dilation=case[6], padding=case[7])
    g = _draw(tuple(y.shape), seed + 3)
    y.backward(torch.from_numpy(g))
    leaves = [gradcli.Tensor(a, requires_grad=True) for a in (x, w, b) if a is not None]
    gconv = NF.conv1d if len(case[4]) == 1 else NF.conv2d
    gy = gconv(
        leaves[0],
        leaves[1],
        leaves[2] if b is not None else None,
        stride=case[5],
        dilation=case[6],
        padding=case[7],
    )
    (gy * gradcli.Tensor(g)).sum().backward()
    # a strided oneDNN conv's input gradient: not mirrored
    first = (
        1
        if case[5] > 1
        and not conv_order.slow_backward(
            x.shape, w.shape, (case[5],) * len(case[4]), (case[6],) * len(case[4]), case[8]
        )
        else 0
    )
    for t, leaf in list(zip(ts, leaves))[first:]:
        np.testing.assert_array_equal(leaf.grad.numpy(), t.grad.numpy(), err_msg=str(case))


def test_past_the_bound_the_float64_sum():
    # a mirrored pass is bounded (conv_order._MAX_WORK): a larger conv keeps the float64 sum
    x = np.ones((2, 64, 64, 64), np.float32)
    w = np.ones((64, 64, 3, 3), np.float32)
    geo = ((1, 1), (1, 1), (1, 1), (64, 64), 1)
    assert conv_order.multiply_adds(x.shape, w.shape, (64, 64)) > conv_order._MAX_WORK
    assert conv_order.conv_float32(x, w, None, *geo) is None
    assert not conv_order.onednn_backward(x.shape, w.shape, *geo[:2], geo[2], geo[3], 1)


def test_live_random_shapes():
    torch = pytest.importorskip("torch")
    F = torch.nn.functional
    torch.set_num_threads(1)
    rng = random.Random(17)
    done = 0
    while done < 24:
        d = rng.choice([1, 2])
        n = rng.choice([1, 1, 2, 4])
        g = rng.choice([1, 1, 1, 2])
        c, o = g * rng.choice([1, 2, 3, 4, 8, 16, 20]), g * rng.choice([1, 2, 4, 8, 16])
        k, st, dl = rng.choice([1, 2, 3, 5]), rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
        p = rng.choice([0, 1, 2])
        spatial = tuple(rng.randint(1, 12) for _ in range(d))
        case = ["?", n, c, o, (k,) * d, st, dl, p, g, spatial, rng.random() < 0.8]
        if min(_out(s, k, st, dl, p) for s in spatial) < 1:
            continue
        x, w, b = _inputs(case, done)
        conv = F.conv1d if d == 1 else F.conv2d
        t = conv(
            torch.from_numpy(x),
            torch.from_numpy(w),
            None if b is None else torch.from_numpy(b),
            stride=st,
            dilation=dl,
            padding=p,
            groups=g,
        ).numpy()
        y = _run(case, x, w, b)
        geo = ((st,) * d, (dl,) * d, (p,) * d, t.shape[2:], g)
        if conv_order.conv_float32(x, w, b, *geo) is not None:  # mirrored: every bit
            np.testing.assert_array_equal(y, t, err_msg=str(case))
        else:  # the float64 sum rounded once (the gemm-based and single-dot kernels)
            np.testing.assert_allclose(y, t, rtol=1e-4, atol=1e-4)
        if g == 1 and _backward_mirrored(case):
            _check_live_gradients(torch, case, x, w, b, done)
        done += 1


def test_fused_bias_on_a_midpoint():
    # an inner size of 1 (one channel, 1x1): fma(w, x, b) with w * x on a float32 midpoint
    # (1 + 2^-11 + 2^-24): the tie goes to even, 1 + 2^-11 (was an IndexError)
    v = np.float32(1 + 2**-12)
    x = np.full((1, 1, 2, 2), v, np.float32)
    w = np.full((2, 1, 1, 1), v, np.float32)
    b = np.zeros(2, np.float32)
    y = _conv_fwd(x, w, b, stride=(1, 1), dilation=(1, 1), pad=(0, 0), out=(2, 2), groups=1)
    assert (y == np.float32(1 + 2**-11)).all()
    b = np.array([2**-30, -(2**-30)], np.float32)  # just above and below the midpoint
    y = _conv_fwd(x, w, b, stride=(1, 1), dilation=(1, 1), pad=(0, 0), out=(2, 2), groups=1)
    assert (y[0, 0] == np.float32(1 + 2**-11 + 2**-23)).all()
    assert (y[0, 1] == np.float32(1 + 2**-11)).all()


def test_a_runs_mirrored_work_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past RUN_WORK multiply-adds in one run, float32 convs take the float64 sum rounded once
    (~20x cheaper), said once on stderr; a new run starts a new account; outside a run (library
    use) the order is always mirrored."""
    from typer.testing import CliRunner

    from gradcli.base import limits
    from gradcli.cli.main import app
    from gradcli.lang import runtime

    assert runtime.hooks.observer is limits.BUDGET  # the interpreter's budget watches the kernel

    x = _draw((2, 3, 6, 6), 1)
    w = _draw((4, 3, 3, 3), 2)
    geo = {"stride": (1, 1), "dilation": (1, 1), "pad": (0, 0), "out": (4, 4), "groups": 1}
    mirrored = conv_order.conv_float32(
        x, w, None, **{k: geo[k] for k in geo if k != "groups"}, groups=1
    )
    assert mirrored is not None  # outside a run: no account
    work = conv_order.multiply_adds(x.shape, w.shape, (4, 4))
    monkeypatch.setattr(conv_order, "RUN_WORK", 2 * work)
    with limits.BUDGET.run():
        assert conv_order.afford(work) and conv_order.afford(work)
        assert not conv_order.afford(1)  # the account is spent
    with limits.BUDGET.run():
        assert conv_order.afford(work)  # a new run, a new account
    program = (
        "import torch.nn.functional as F\ntorch.manual_seed(0)\n"
        "x = torch.randn(2, 3, 6, 6)\nw = torch.randn(4, 3, 3, 3)\n"
        "for i in range(4):\n    y = F.conv2d(x, w)\nprint(y.shape)"
    )
    r = CliRunner().invoke(app, ["run", "-e", program])
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "torch.Size([2, 4, 4, 4])\n"
    assert r.stderr.count("warning: float32 convolutions past") == 1, r.stderr
    monkeypatch.setattr(conv_order, "RUN_WORK", 4 * work)
    quiet = CliRunner().invoke(app, ["run", "-e", program])
    assert quiet.exit_code == 0 and "float32 convolutions" not in quiet.stderr
