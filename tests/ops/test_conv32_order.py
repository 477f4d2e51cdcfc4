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
    if plan is None:
        return "gemm"  # oneDNN's gemm-based forward: not mirrored (recorded for the gradients)
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
    if case[0] == "gemm":
        assert conv_order.conv_float32(*_inputs(case, rec["seed"]), *_geo(case)) is None
        return
    got = hashlib.sha256(np.ascontiguousarray(y).tobytes()).hexdigest()[:24]
    assert got == rec["sha"]


def _geo(case: list) -> tuple:
    kernel, st, dl, p, g, spatial = case[4], case[5], case[6], case[7], case[8], case[9]
    d = len(kernel)
    out = tuple(_out(s, k, st, dl, p) for s, k in zip(spatial, kernel))
    return (st,) * d, (dl,) * d, (p,) * d, out, g


def _shapes(case: list) -> tuple:
    return (case[1], case[2], *case[9]), (case[3], case[2] // case[8], *case[4])


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
    if conv_order.dw_backward(x_shape, w_shape, *geo, (p,) * d, out, g):
        return True
    if conv_order.direct_backward(x_shape, w_shape, *geo, (p,) * d, out, g):
        return True
    return conv_order.onednn_backward(x_shape, w_shape, *geo, (p,) * d, out, g)


def _mirrored(case: list) -> list[bool]:
    """Which of the input, weight and bias gradients are in PyTorch's order."""
    x_shape = (case[1], case[2], *case[9])
    w_shape = (case[3], case[2] // case[8], *case[4])
    st, dl, p, out, g = _geo(case)
    kind = conv_order.dw_backward(x_shape, w_shape, st, dl, p, out, g)
    if kind:
        return [True, kind == "dw", kind == "dw"]
    kind = conv_order.direct_backward(x_shape, w_shape, st, dl, p, out, g)
    if kind:
        _, block, weights = kind.split(":")
        return [bool(block), bool(weights), bool(weights)]
    return [True, True, True]


def _dw_kind(case: list) -> str:
    kernel, st, dl, p, g, spatial = case[4], case[5], case[6], case[7], case[8], case[9]
    d = len(kernel)
    x_shape, w_shape = (case[1], case[2], *spatial), (case[3], case[2] // g, *kernel)
    out = tuple(_out(s, k, st, dl, p) for s, k in zip(spatial, kernel))
    return conv_order.dw_backward(x_shape, w_shape, (st,) * d, (dl,) * d, (p,) * d, out, g)


GRAD_CASES = [r for r in CASES if _backward_mirrored(r["case"])]


def test_grad_cases_cover_the_direct_kernel():
    # every recorded undilated direct-kernel case has its gradients mirrored, strided too
    want = [r for r in CASES if r["case"][0] == "direct" and r["case"][6] == 1]
    assert len(want) >= 20 and all(r in GRAD_CASES for r in want)
    strided = [r["case"] for r in want if r["case"][5] > 1]
    assert len(strided) >= 12
    # widths a multiple of the stride (kernel columns apart) and not (one chain), 1-d and 2-d
    assert {(c[9][-1] % c[5] == 0, len(c[4])) for c in strided} == {
        (True, 1),
        (False, 1),
        (True, 2),
        (False, 2),
    }
    assert {c[1] for c in strided} >= {1, 16}
    # and jit_1x1's, strided and not (to 256 output channels; past them: not measured)
    ones = [r for r in CASES if r["case"][0] == "1x1" and r["case"][6] == 1]  # (undilated)
    assert len([r for r in ones if r["case"][5] > 1]) >= 3
    assert len([r for r in ones if r["case"][5] == 1]) >= 5
    assert all(r in GRAD_CASES for r in ones if r["case"][3] <= 256)
    assert not any(r in GRAD_CASES for r in ones if r["case"][3] > 256)
    # and slow_conv2d's of one sample
    slow = [r for r in CASES if r["case"][0] == "slow" and r["case"][1] == 1]
    assert len(slow) >= 6 and all(r in GRAD_CASES for r in slow)


def test_1x1_weight_gradient_per_sample() -> None:
    # jit_1x1's weight gradient: a chain a sample; one chain over every sample (the direct
    # kernel's rule) misses the recorded bits
    ones = [r for r in GRAD_CASES if r["case"][0] == "1x1" and r["case"][1] > 1]
    assert len(ones) >= 6
    for rec in ones:
        case = rec["case"]
        d = len(case[4])
        x, w, _ = _inputs(case, rec["seed"])
        out = tuple(s // case[5] for s in case[9])
        g = _draw((case[1], case[3]) + out, rec["seed"] + 3)
        geo = ((case[5],) * d, (1,) * d, (0,) * d)
        assert _sha(conv_order.grad_weight(x, g, case[4], *geo)) == rec["grads"][1]
        # the direct kernel's order: the samples' chains joined
        gm = np.moveaxis(g, 1, 0).reshape(case[3], -1)
        xs = x[(Ellipsis,) + (slice(None, None, case[5]),) * d]
        cols = np.moveaxis(xs, 1, 0).reshape(case[2], -1)
        joined = conv_order._chain(gm, np.ascontiguousarray(cols.T))
        assert _sha(joined) != rec["grads"][1]


@pytest.mark.parametrize("rec", GRAD_CASES, ids=lambda r: f"{r['case'][0]}-{r['seed']}")
def test_recorded_gradients(rec):
    # the input, weight and bias gradients through gradcli's autograd (oneDNN's backward order)
    case = rec["case"]
    x, w, b = _inputs(case, rec["seed"])
    leaves = [gradcli.Tensor(a, requires_grad=True) for a in (x, w, b) if a is not None]
    conv = NF.conv1d if len(case[4]) == 1 else NF.conv2d
    bias = leaves[2] if b is not None else None
    geo = {"stride": case[5], "dilation": case[6], "padding": case[7], "groups": case[8]}
    y = conv(leaves[0], leaves[1], bias, **geo)
    g = _draw(tuple(y.shape), rec["seed"] + 3)
    (y * gradcli.Tensor(g)).sum().backward()
    got = [_sha(t.grad.numpy()) for t in leaves]
    mirrored = _mirrored(case)[: len(got)]
    assert [a for a, m in zip(got, mirrored) if m] == [
        a for a, m in zip(rec["grads"], mirrored) if m
    ]
    # (the others are oneDNN's gemm-based kernels' and the float64 sum here: not compared)


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
    geo = {"stride": case[5], "dilation": case[6], "padding": case[7], "groups": case[8]}
    y = conv(ts[0], ts[1], bias, **geo)
    g = _draw(tuple(y.shape), seed + 3)
    y.backward(torch.from_numpy(g))
    leaves = [gradcli.Tensor(a, requires_grad=True) for a in (x, w, b) if a is not None]
    gconv = NF.conv1d if len(case[4]) == 1 else NF.conv2d
    gy = gconv(
        leaves[0],
        leaves[1],
        leaves[2] if b is not None else None,
        **geo,
    )
    (gy * gradcli.Tensor(g)).sum().backward()
    for t, leaf in zip(ts, leaves):
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
        if _backward_mirrored(case) and _dw_kind(case) != "dw-data":
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
    """Past conv32_work multiply-adds in one run, float32 convs take the float64 sum rounded once
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
    monkeypatch.setenv("GRADCLI_CONV32_WORK", str(2 * work))
    with limits.BUDGET.run():
        assert conv_order.afford(work) and conv_order.afford(work)
        assert not conv_order.afford(1)  # the account is spent
    with limits.BUDGET.run():
        assert conv_order.afford(work)  # a new run, a new account
    program = (
        "import torch\nimport torch.nn.functional as F\ntorch.manual_seed(0)\n"
        "x = torch.randn(2, 3, 6, 6)\nw = torch.randn(4, 3, 3, 3)\n"
        "for i in range(4):\n    y = F.conv2d(x, w)\nprint(y.shape)"
    )
    r = CliRunner().invoke(app, ["run", "-e", program])
    assert r.exit_code == 0, r.stderr
    assert r.stdout == "torch.Size([2, 4, 4, 4])\n"
    assert r.stderr.count("warning: this float32 convolution (input [2, 3, 6, 6]") == 1, r.stderr
    assert f"after {2 * work:,} in this run" in r.stderr and "GRADCLI_CONV32_WORK" in r.stderr
    monkeypatch.setenv("GRADCLI_CONV32_WORK", str(4 * work))
    quiet = CliRunner().invoke(app, ["run", "-e", program])
    assert quiet.exit_code == 0 and "float32 convolutions" not in quiet.stderr


STRIDED = [r for r in GRAD_CASES if r["case"][5] > 1 and r["case"][0] == "direct"]


def _strided_grad_input(rec) -> np.ndarray:
    case = rec["case"]
    d = len(case[4])
    x, w, _ = _inputs(case, rec["seed"])
    out = tuple(_out(s, k, case[5], 1, case[7]) for s, k in zip(case[9], case[4]))
    g = _draw((case[1], case[3]) + out, rec["seed"] + 3)
    return conv_order.grad_input(g, w, case[9], (case[5],) * d, (1,) * d, (case[7],) * d)


def test_column_calls():
    # kernel 3, padding 1, stride 2: the odd input columns meet kernel columns 0 and 2; with a
    # width of 8 column 0 reaches past the output for input column 7 (a chain of its own), with
    # 9 both meet every odd column, and an uneven width is one chain anyway
    assert conv_order._column_calls(1, 3, 2, 1, 8, 4) == [[0], [2]]
    assert conv_order._column_calls(0, 3, 2, 1, 8, 4) == [[1]]
    assert conv_order._column_calls(1, 3, 2, 1, 10, 5) == [[0], [2]]
    assert conv_order._column_calls(1, 3, 2, 1, 9, 5) == [[0, 2]]
    # kernel 5, padding 3, stride 2, width 20 (10 outputs): a kernel column reaching past the
    # output on the left or the right is a chain of its own
    assert conv_order._column_calls(0, 5, 2, 3, 20, 10) == [[1], [3]]
    assert conv_order._column_calls(1, 5, 2, 3, 20, 10) == [[0], [2], [4]]
    # width 8 (5 outputs): kernel columns 2 and 4 meet every odd column, one chain
    assert conv_order._column_calls(1, 5, 2, 3, 8, 5) == [[0], [2, 4]]
    assert conv_order._column_calls(0, 5, 2, 3, 8, 5) == [[1, 3]]
    assert conv_order._column_calls(0, 5, 2, 4, 8, 6) == [[0, 2, 4]]
    assert conv_order._column_calls(0, 7, 3, 4, 18, 7) == [[1, 4]]
    assert conv_order._column_calls(1, 1, 2, 0, 8, 4) == []  # no kernel column: zeros


def test_strided_order_is_what_the_records_test(monkeypatch: pytest.MonkeyPatch) -> None:
    # the recorded bits tell the orders apart: one chain where the kernel columns are summed
    # apart (and the reverse) changes the input gradient of some recorded cases, and one
    # element 1 ulp off changes its digest
    def one_chain(r, k, st, p, size, out):
        return [[kw for call in calls(r, k, st, p, size, out) for kw in call]]

    def apart(r, k, st, p, size, out):
        return [[kw] for call in calls(r, k, st, p, size, out) for kw in call]

    calls = conv_order._column_calls
    for rule, even in ((one_chain, True), (apart, False)):
        chosen = [r for r in STRIDED if (r["case"][9][-1] % r["case"][5] == 0) == even]
        monkeypatch.setattr(conv_order, "_column_calls", rule)
        changed = [_sha(_strided_grad_input(r)) != r["grads"][0] for r in chosen]
        monkeypatch.setattr(conv_order, "_column_calls", calls)
        assert sum(changed) >= 2, rule
    rec = STRIDED[0]
    gx = _strided_grad_input(rec)
    assert _sha(gx) == rec["grads"][0]
    i = np.unravel_index(np.argmax(np.abs(gx)), gx.shape)
    gx[i] = np.nextafter(gx[i], np.float32(np.inf))
    assert _sha(gx) != rec["grads"][0]


def test_strided_grad_input_is_the_sum():
    # whatever the order, the float32 input gradient is the float64 one to float32 rounding
    # (strides 2-3 along either axis, paddings to the kernel's reach, widths even and odd)
    from gradcli.ops.conv import _conv_tx_core

    rng = random.Random(5)
    for i in range(30):
        d = rng.choice([1, 2])
        k = tuple(rng.choice([1, 2, 3, 5]) for _ in range(d))
        st = tuple(rng.choice([1, 2, 3]) for _ in range(d - 1)) + (rng.choice([2, 3]),)
        p = tuple(rng.randint(0, kk - 1) for kk in k)
        size = tuple(kk + rng.randint(0, 12) for kk in k)
        out = tuple((s + 2 * q - kk) // t + 1 for s, q, kk, t in zip(size, p, k, st))
        n, c, o = rng.choice([2, 5]), rng.choice([1, 3]), rng.choice([1, 4, 17])
        w = _draw((o, c) + k, i)
        g = _draw((n, o) + out, i + 1)
        got = conv_order.grad_input(g, w, size, st, (1,) * d, p)
        ref = _conv_tx_core(
            g.astype(np.float64), w.astype(np.float64), size, st, (1,) * d, p, out, 1
        )
        assert got.dtype == np.float32 and got.shape == ref.shape
        scale = np.abs(g).max() * np.abs(w).max() * o * int(np.prod(k))
        np.testing.assert_allclose(got, ref, rtol=0, atol=scale * 2**-20)


DEPTHWISE = [r for r in GRAD_CASES if r["case"][0] == "depthwise"]


def test_depthwise_cases_cover_the_kernels():
    # jit_dw's gradients: both (strided, padded or not, conv1d and conv2d, channels not a
    # multiple of 16, rows past its blocks of 15), and the input gradient alone (wider kernels)
    kinds = [(_dw_kind(r["case"]), r["case"]) for r in DEPTHWISE]
    both = [c for k, c in kinds if k == "dw"]
    assert len(both) >= 8 and len([k for k, _ in kinds if k == "dw-data"]) >= 2
    assert {c[5] for c in both} == {1, 2} and {len(c[4]) for c in both} == {1, 2}
    assert any(c[2] % 16 for c in both) and any(c[7] == 0 for c in both)
    assert any(c[1] == 1 for c in both) and any(max(c[9]) > 15 for c in both)


def _dw_inputs(rec):
    case = rec["case"]
    d = len(case[4])
    x, w, _ = _inputs(case, rec["seed"])
    out = tuple(_out(s, k, case[5], 1, case[7]) for s, k in zip(case[9], case[4]))
    g = _draw((case[1], case[3]) + out, rec["seed"] + 3)
    return x, w, g, (case[5],) * d, (case[7],) * d


def test_depthwise_orders_are_what_the_records_test(monkeypatch: pytest.MonkeyPatch) -> None:
    # jit_dw's input gradient takes the kernel rows, then the columns: the columns first misses
    # the records; its weight gradient is one chain over every sample: a chain a sample, the
    # sums added, misses them; and one element 1 ulp off changes a digest
    changed = []
    for rec in DEPTHWISE:
        x, w, g, st, p = _dw_inputs(rec)
        gx = conv_order.dw_grad_input(g, w, rec["case"][9], st, p)
        assert _sha(gx) == rec["grads"][0]
        if w.ndim == 4:  # columns first: the kernel transposed, its gradient transposed back
            wt = np.ascontiguousarray(np.swapaxes(w, 2, 3))
            gt = np.ascontiguousarray(np.swapaxes(g, 2, 3))
            other = conv_order.dw_grad_input(gt, wt, rec["case"][9][::-1], st[::-1], p[::-1])
            changed.append(_sha(np.swapaxes(other, 2, 3)) != rec["grads"][0])
    assert sum(changed) >= 5
    apart = 0
    for rec in [r for r in DEPTHWISE if _dw_kind(r["case"]) == "dw" and r["case"][1] > 1]:
        x, w, g, st, p = _dw_inputs(rec)
        gw = conv_order.dw_grad_weight(x, g, rec["case"][4], st, p)
        assert _sha(gw) == rec["grads"][1]
        parts = [
            conv_order.dw_grad_weight(x[i : i + 1], g[i : i + 1], w.shape[2:], st, p)
            for i in range(len(x))
        ]
        apart += _sha(np.sum(parts, axis=0, dtype=np.float32)) != rec["grads"][1]
        i = np.unravel_index(np.argmax(np.abs(gw)), gw.shape)
        gw[i] = np.nextafter(gw[i], np.float32(np.inf))
        assert _sha(gw) != rec["grads"][1]
    assert apart >= 5


def test_depthwise_gradients_are_the_sum():
    # whatever the order, jit_dw's gradients are the float64 ones to float32 rounding
    from gradcli.ops.conv import _conv_tw_core, _conv_tx_core

    rng = random.Random(11)
    for i in range(30):
        d = rng.choice([1, 2])
        k = tuple(rng.choice([1, 2, 3, 5]) for _ in range(d))
        st = tuple(rng.choice([1, 2, 3]) for _ in range(d))
        p = tuple(rng.randint(0, kk - 1) for kk in k)
        size = tuple(kk + rng.randint(0, 12) for kk in k)
        out = tuple((s + 2 * q - kk) // t + 1 for s, q, kk, t in zip(size, p, k, st))
        n, c = rng.choice([1, 2, 5]), rng.choice([1, 3, 16, 20])
        w, g, x = _draw((c, 1) + k, i), _draw((n, c) + out, i + 1), _draw((n, c) + size, i + 2)
        geo = (st, (1,) * d, p, out, c)
        gx = conv_order.dw_grad_input(g, w, size, st, p)
        ref = _conv_tx_core(g.astype(np.float64), w.astype(np.float64), size, *geo)
        scale = np.abs(g).max() * np.abs(w).max() * int(np.prod(k))
        np.testing.assert_allclose(gx, ref, rtol=0, atol=scale * 2**-20)
        gw = conv_order.dw_grad_weight(x, g, k, st, p)
        ref = _conv_tw_core(x.astype(np.float64), g.astype(np.float64), k, *geo)
        scale = np.abs(g).max() * np.abs(x).max() * n * int(np.prod(out))
        np.testing.assert_allclose(gw, ref, rtol=0, atol=scale * 2**-20)
        assert gx.dtype == gw.dtype == np.float32


DIRECT = [
    (r, k)
    for r in GRAD_CASES
    if (k := conv_order.direct_backward(*_shapes(r["case"]), *_geo(r["case"])))
]


def test_direct_cases_cover_the_kernels():
    # grouped convs: blocks of 16, 8 and 4 output channels and the brgemm strided kernel, with
    # and without the weight gradient; dilated convs of one group: with and without it
    kinds = {k for _, k in DIRECT}
    assert {"direct:16:w", "direct:8:w", "direct:4:", "direct:S:w", "direct:S:"} <= kinds
    assert {"direct:16:", "direct::w"} <= kinds
    assert any(r["case"][5] > 1 and k == "direct:16:w" for r, k in DIRECT)  # strided direct


def test_direct_data_refusals():
    # oneDNN's direct backward-data kernel refuses a register blocking of 10 columns that the
    # stride 3 does not divide (input width 15): the brgemm strided kernel takes it
    geo = ((3,), (1,), (1,), (5,), 2)
    assert conv_order._direct_data((8, 64, 15), (24, 32, 2), *geo) == 0
    assert conv_order.direct_backward((8, 64, 15), (24, 32, 2), *geo) == "direct:S:"
    geo = ((2,), (1,), (1,), (8,), 2)
    assert conv_order._direct_data((8, 64, 15), (24, 32, 2), *geo) == 4
    # groups of 2 input channels: oneDNN's gemm-based kernels (not mirrored)
    assert (
        conv_order.direct_backward((2, 4, 8, 8), (8, 2, 3, 3), (1, 1), (1, 1), (1, 1), (8, 8), 2)
        == ""
    )


def _direct_grad_input(rec, block: str) -> np.ndarray:
    case = rec["case"]
    x, w, _ = _inputs(case, rec["seed"])
    st, dl, p, out, g = _geo(case)
    gy = _draw((case[1], case[3]) + out, rec["seed"] + 3)
    return conv_order.direct_grad_input(gy, w, case[9], st, dl, p, g, block)


def test_direct_orders_are_what_the_records_test():
    # another block of output channels (one that chunks them otherwise), or the other strided
    # kernel, misses the records; one element 1 ulp off changes a digest
    data = [(r, k.split(":")[1]) for r, k in DIRECT if k.split(":")[1]]
    assert len(data) >= 10
    tried = 0
    for rec, block in data:
        gx = _direct_grad_input(rec, block)
        assert _sha(gx) == rec["grads"][0]
        og = rec["case"][3] // rec["case"][8]
        if block == "S":
            # the direct kernel's chain on the spread gradient, in smaller blocks
            others = {b for b in ("8", "4") if int(b) < og}
        else:
            others = {b for b in ("16", "8", "4") if min(int(b), og) != min(int(block), og)}
            # (an odd width: the brgemm kernel's one chain is this order too)
            others |= {"S"} if rec["case"][5] > 1 and rec["case"][9][-1] % 2 == 0 else set()
        for b in others:
            assert _sha(_direct_grad_input(rec, b)) != rec["grads"][0], (rec["case"], b)
            tried += 1
        i = np.unravel_index(np.argmax(np.abs(gx)), gx.shape)
        gx[i] = np.nextafter(gx[i], np.float32(-np.inf))
        assert _sha(gx) != rec["grads"][0]
    assert tried >= 20


def test_slow_several_samples_and_dilated():
    # slow_conv2d's gradients with several samples and slow_conv_dilated2d's are mirrored
    slow = [r for r in GRAD_CASES if r["case"][0] == "slow" and r["case"][1] > 1]
    dilated = [r for r in GRAD_CASES if r["case"][0] == "dilated"]
    assert len(slow) >= 4 and len(dilated) >= 3
    missed = 0
    for rec in slow:
        case = rec["case"]
        x, _, _ = _inputs(case, rec["seed"])
        st, dl, p, out, _ = _geo(case)
        g = _draw((case[1], case[3]) + out, rec["seed"] + 3)
        gw = conv_order.slow_grad_weight(x, g, case[4], st, dl, p)
        assert _sha(gw) == rec["grads"][1]
        # the samples' products summed otherwise (each rounded, then added; or one sum of
        # the float64 products) miss the records
        parts = [
            conv_order._slow_grad_weight(x[i : i + 1], g[i : i + 1], case[4], st, dl, p)
            for i in range(len(x))
        ]
        n, o, c = case[1], case[3], case[2]  # (a 1x1 kernel: the products of g and x)
        ref = np.einsum("nol,ncl->oc", g.reshape(n, o, -1).astype(np.float64), x.reshape(n, c, -1))
        apart = np.sum(parts, axis=0, dtype=np.float32) if parts[0] is not None else None
        missed += _sha(ref.reshape(gw.shape)) != rec["grads"][1]
        if int(np.prod(out)) == 1:
            missed += _sha(apart) != rec["grads"][1]
    assert missed >= len(slow)


def test_unstrided_1x1_input_gradient_one_chain() -> None:
    # jit_1x1's input gradient (unstrided): one chain over every output channel; the direct
    # kernel's chains of 16 summed miss the records past 16 output channels
    ones = [r for r in GRAD_CASES if r["case"][0] == "1x1" and r["case"][5] == 1]
    wide = [r for r in ones if r["case"][3] > 16]
    assert len(wide) >= 3
    for rec in ones:
        case = rec["case"]
        st, dl, p, out, _ = _geo(case)
        _, w, _ = _inputs(case, rec["seed"])
        g = _draw((case[1], case[3]) + out, rec["seed"] + 3)
        gx = conv_order.grad_input(g, w, case[9], st, dl, p)
        assert _sha(gx) == rec["grads"][0]
        if rec in wide:
            sixteens = conv_order._grad_input(g, w, tuple(case[9]), st, dl, p, 16)
            assert _sha(sixteens) != rec["grads"][0]
