"""float32 batch_norm in training and evaluation is PyTorch's to the bit, values and first-order
gradients (ATen's batch_norm_kernel.cpp with one thread: the channels-last kernel for (N, C),
the contiguous one for images, the generic loop for an expanded upstream gradient), against
PyTorch 2.13's recorded bits (tests/ops/data/record_bn32.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import gradcli
from gradcli.surface import nnfunctional as N

HERE = Path(__file__).parent / "data"
CASES = json.loads((HERE / "bn32.json").read_text())["cases"]


def _draw(case: dict) -> tuple[np.ndarray, ...]:
    # the recorder's own draw (it imports torch only inside main)
    rng = np.random.default_rng([case["seed"], 11])
    shape = case["shape"]
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    w = rng.standard_normal(shape[1]).astype(np.float32)
    b = rng.standard_normal(shape[1]).astype(np.float32)
    g = rng.standard_normal(shape).astype(np.float32)
    rm = rng.standard_normal(shape[1]).astype(np.float32)
    rv = (rng.random(shape[1]) * 3 + 0.1).astype(np.float32)
    return x, w, b, g, rm, rv


def _bits(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.float32).reshape(-1).view(np.uint32)


def _run(case: dict) -> dict[str, np.ndarray]:
    x, w, b, g, rm, rv = _draw(case)
    xt = gradcli.Tensor(x, requires_grad=True)
    wt = gradcli.Tensor(w, requires_grad=True) if case["affine"] else None
    bt = gradcli.Tensor(b, requires_grad=True) if case["affine"] else None
    stats = (None, None) if case["training"] else (gradcli.Tensor(rm), gradcli.Tensor(rv))
    y = N.batch_norm(xt, *stats, wt, bt, training=case["training"])
    if case["upstream"] == "expanded":
        up = gradcli.Tensor(np.broadcast_to(np.float32(0.75), y.shape))
    else:
        up = gradcli.Tensor(g)
    y.backward(up)
    out = {"y": y.data, "dx": xt.grad.data}
    if case["affine"]:
        out.update(dw=wt.grad.data, db=bt.grad.data)
    return out


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['shape']}-{c['seed']}")
def test_pytorchs_to_the_bit(case: dict) -> None:
    got = _run(case)
    for key, arr in got.items():
        want = np.array(case[key], dtype=np.uint32)
        same = _bits(arr) == want
        assert same.all(), f"{key}: {int((~same).sum())} of {want.size} differ"


def test_the_cases_cover_every_kernel() -> None:
    for mode in (True, False):
        kinds = {(len(c["shape"]) == 2, c["upstream"]) for c in CASES if c["training"] == mode}
        assert kinds == {
            (True, "dense"),
            (False, "dense"),
            (True, "expanded"),
            (False, "expanded"),
        }
    # some (N, C) cases have channels past a whole vector of 8 (the unfused tail lanes)
    assert any(len(c["shape"]) == 2 and c["shape"][1] % 8 and c["shape"][1] > 8 for c in CASES)


def test_the_data_tells_the_kernel_from_the_textbook_formula() -> None:
    """The gradients by the formula in float64, rounded once (what gradcli computed before),
    miss PyTorch's bits on many elements: the test above can fail."""
    misses = total = 0
    for case in CASES:
        if case["upstream"] != "dense" or not case["training"]:
            continue
        x, w, _, g, _, _ = (a.astype(np.float64) for a in _draw(case))
        dims = (0,) + tuple(range(2, x.ndim))
        per = (1, x.shape[1]) + (1,) * (x.ndim - 2)
        mu = x.mean(axis=dims, keepdims=True)
        s = np.sqrt(((x - mu) ** 2).mean(axis=dims, keepdims=True) + 1e-5)
        xhat = (x - mu) / s
        gy = g * (w.reshape(per) if case["affine"] else 1.0)
        dx = (gy - gy.mean(axis=dims, keepdims=True)) - xhat * (gy * xhat).mean(
            axis=dims, keepdims=True
        )
        dx = dx / s
        want = np.array(case["dx"], dtype=np.uint32)
        misses += int((_bits(dx.astype(np.float32)) != want).sum())
        total += want.size
    assert misses > total // 20, (misses, total)


def test_the_data_tells_the_evaluation_kernel_from_the_composition() -> None:
    """In evaluation the kernel multiplies by its rounded invstd, then by the weight; the
    composition gradcli had before divided `g * w` by sqrt(var + eps): a different rounding,
    which the recorded bits tell apart."""
    misses = total = 0
    for case in CASES:
        if case["training"] or not case["affine"] or case["upstream"] != "dense":
            continue
        x, w, _, g, _, rv = _draw(case)
        per = (1, x.shape[1]) + (1,) * (x.ndim - 2)
        s = np.sqrt(rv + np.float32(1e-5)).reshape(per)
        dx = (g * w.reshape(per)) / s
        want = np.array(case["dx"], dtype=np.uint32)
        misses += int((_bits(dx) != want).sum())
        total += want.size
    assert total and misses > total // 50, (misses, total)


def test_a_change_in_place_of_the_output_is_fine_of_the_input_refused() -> None:
    """PyTorch's node saves the input (and weight), not the output: `ReLU(inplace=True)` after
    a batch norm is fine; changing the input before backward is its version error."""
    from gradcli.base.errors import GradcliError

    a = gradcli.Tensor(np.arange(12, dtype=np.float32).reshape(4, 3) ** 1.5, requires_grad=True)
    y = N.batch_norm(a * 1, None, None, None, None, training=True)
    y.relu_()
    y.sum().backward()
    assert a.grad is not None
    x = a * 1
    y = N.batch_norm(x, None, None, None, None, training=True)
    x.add_(1)
    with pytest.raises(GradcliError, match="modified by an inplace operation"):
        y.sum().backward()


def test_an_input_changed_in_place_gets_its_own_statistics() -> None:
    """The statistics kept for the last input are not reused once its values changed."""
    a = np.arange(12, dtype=np.float32).reshape(4, 3) ** 1.5
    x = gradcli.Tensor(a)
    N.batch_norm(x, None, None, None, None, training=True)
    x.data *= 3
    x.data += 1
    again = N.batch_norm(x, None, None, None, None, training=True).data
    fresh = N.batch_norm(gradcli.Tensor(x.data.copy()), None, None, None, None, training=True)
    assert (_bits(again) == _bits(fresh.data)).all()
    rm = gradcli.Tensor(np.zeros(3, np.float32))
    rv = gradcli.Tensor(np.ones(3, np.float32))
    N.batch_norm(x, rm, rv, None, None, training=True, momentum=1.0)
    assert np.allclose(rm.data, x.data.mean(0), rtol=1e-6)
