"""gradcli.surface.random against PyTorch 2.13: recorded outputs, compared bit for bit, and the
same programs live against torch when it is installed.

The case programs live in data/random/record.py, which also records them under torch: seeds 0,
1, 42, 1234, 2**31 - 1, 2**32 + 5, 2**63 - 1 and negative ones; sizes 0 to 10**5 (below, at and
past the 16-element vectorised path); float32, float64, float16, bfloat16 and the integer dtypes;
every sampler (rand randn uniform_ normal_ normal randint random_ randperm exponential_
geometric_ log_normal_ cauchy_ bernoulli multinomial poisson, dropout's masks, nn.init and the
modules' default initialisation); views and empty_like layouts; sequences, interleavings, two
generators, state save/restore. `test_random_programs.py` runs the same ground as programs.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import json
import math
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gradcli.core.dtypes import BF16
from gradcli.surface import random as R

DATA = Path(__file__).resolve().parent / "data" / "random"


def _load_record() -> Any:
    spec = importlib.util.spec_from_file_location("_random_record", DATA / "record.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


REC = _load_record()
HASHES: dict[str, str] = json.loads((DATA / "hashes.json").read_text())["hashes"]
EXPECTED = np.load(DATA / "expected.npz")


# ---------------------------------------------------------------------------------------------
# gradcli's side of the case programs
# ---------------------------------------------------------------------------------------------


def run_ours(program: list[tuple[str, dict[str, Any]]]) -> list[np.ndarray]:
    gens: dict[str, R.Generator] = {}
    saved: list[np.ndarray] = []
    outs: list[np.ndarray] = []
    for op, kw in program:
        g = gens.get(kw.get("gen", ""), None)
        gen = g if g is not None else R.default_generator()
        dt = kw.get("dtype")
        if op == "seed":
            R.manual_seed(kw["seed"])
        elif op == "gen_seed":
            gens["g"] = R.Generator().manual_seed(kw["seed"])
        elif op == "gen_new":
            gens["g"] = R.Generator()
        elif op == "save":
            saved.append(R.get_rng_state())
        elif op == "restore":
            R.set_rng_state(saved[-1])
        elif op == "state":
            outs.append(gen.get_state())
        elif op == "rand":
            outs.append(R.rand(kw["size"], dtype=dt, generator=gen))
        elif op == "randn":
            outs.append(R.randn(kw["size"], dtype=dt, generator=gen))
        elif op == "uniform_":
            outs.append(R.uniform_(kw["size"], kw["a"], kw["b"], dtype=dt, generator=gen))
        elif op == "normal_":
            outs.append(R.normal_(kw["size"], kw["mean"], kw["std"], dtype=dt, generator=gen))
        elif op == "exponential_":
            outs.append(R.exponential_(kw["size"], kw["lambd"], dtype=dt, generator=gen))
        elif op == "bernoulli_":
            outs.append(R.bernoulli_(kw["size"], kw["p"], dtype=dt, generator=gen))
        elif op == "randint":
            outs.append(R.randint(kw["low"], kw["high"], kw["size"], dtype=dt, generator=gen))
        elif op == "random_":
            outs.append(R.random_(kw["size"], *kw["bounds"], dtype=dt, generator=gen))
        elif op == "randperm":
            outs.append(R.randperm(kw["n"], dtype=dt, generator=gen))
        elif op == "geometric_":
            outs.append(R.geometric_(kw["size"], kw["p"], dtype=dt, generator=gen))
        elif op == "log_normal_":
            outs.append(R.log_normal_(kw["size"], kw["mean"], kw["std"], dtype=dt, generator=gen))
        elif op == "cauchy_":
            outs.append(R.cauchy_(kw["size"], kw["median"], kw["sigma"], dtype=dt, generator=gen))
        elif op.startswith(("like_", "view_")):
            v = REC.make_view(functools.partial(np.empty, dtype=np.float32), *kw["view"])
            strides = tuple(st // v.itemsize for st in v.strides)
            like = {"dtype": dt, "generator": gen, "strides": R.dense_strides(v.shape, strides)}
            view = {"dtype": dt, "generator": gen, "strides": strides}
            if op == "like_rand":
                outs.append(R.rand(v.shape, **like))
            elif op == "like_randn":
                outs.append(R.randn(v.shape, **like))
            elif op == "like_randint":
                outs.append(R.randint(3, 40, v.shape, **like))
            elif op == "view_geometric":
                outs.append(R.geometric_(v.shape, 0.25, **view))
            elif op == "view_log_normal":
                outs.append(R.log_normal_(v.shape, **view))
            elif op == "view_cauchy":
                outs.append(R.cauchy_(v.shape, **view))
            else:
                outs.append(R.random_(v.shape, -7, 7, **view))
        elif op == "poisson":
            outs.append(R.poisson(REC.make_input(kw["rates"], dt), generator=gen))
        elif op == "dropout_view":
            x = REC.make_view(REC.make_input(kw["x"], dt).reshape, *kw["view"])
            outs.append(R.dropout(x, kw["p"], generator=gen)[0])
        elif op == "feature_dropout":
            x = REC.make_input(kw["x"], dt)
            mask = R.dropout_mask(R.feature_noise_shape(x.shape), kw["p"], dtype=dt, generator=gen)
            outs.append((x * mask).astype(x.dtype))
        elif op in ("alpha_dropout", "feature_alpha_dropout"):
            x = REC.make_input(kw["x"], dt)
            shape = x.shape if op == "alpha_dropout" else R.feature_noise_shape(x.shape)
            noise, shift = R.alpha_dropout_noise(shape, kw["p"], dtype=dt, generator=gen)
            outs.append(_half_op((x * noise).astype(x.dtype), shift, np.add))
        elif op == "multinomial_t":
            p = REC.make_input(kw["probs"], dt).T
            strides = R.dense_strides(p.shape, tuple(st // p.itemsize for st in p.strides))
            outs.append(
                R.multinomial(p, kw["n"], kw["replacement"], generator=gen, strides=strides)
            )
        elif op == "sparse_":
            args = {k: v for k, v in kw.items() if k not in ("shape", "dtype")}
            outs.append(R.sparse_(kw["shape"], **args, dtype=dt, generator=gen))
        elif op == "nc_slice_normal":
            # torch.empty(6, 8)[:, ::2]: shape (6, 4), strides (8, 2)
            outs.append(R.normal_((6, 4), dtype=dt, generator=gen, strides=(8, 2)))
        elif op.startswith("nc_"):
            base = kw["shape"]
            perm = kw["perm"]
            shape = tuple(base[p] for p in perm)
            contiguous = [int(np.prod(base[i + 1 :])) for i in range(len(base))]
            strides = tuple(contiguous[p] for p in perm)
            common = {"dtype": dt, "generator": gen, "strides": strides}
            if op == "nc_uniform":
                outs.append(R.uniform_(shape, -1, 2, **common))
            elif op == "nc_normal":
                outs.append(R.normal_(shape, 1, 3, **common))
            elif op == "nc_bernoulli":
                outs.append(R.bernoulli_(shape, 0.4, **common))
            else:
                outs.append(R.exponential_(shape, **common))
        elif op == "normal_tf":
            outs.append(R.normal(REC.make_input(kw["mean"], dt), kw["std"], generator=gen))
        elif op == "normal_ft":
            outs.append(R.normal(kw["mean"], REC.make_input(kw["std"], dt), generator=gen))
        elif op == "normal_tt":
            mean, std = REC.make_input(kw["mean"], dt), REC.make_input(kw["std"], dt)
            outs.append(R.normal(mean, std, generator=gen))
        elif op == "normal_ff":
            outs.append(R.normal(kw["mean"], kw["std"], kw["size"], dtype=dt, generator=gen))
        elif op == "multinomial":
            p = REC.make_input(kw["probs"], dt)
            outs.append(R.multinomial(p, kw["n"], kw["replacement"], generator=gen))
        elif op in ("dropout", "dropout_eval"):
            x = REC.make_input(kw["x"], dt)
            outs.append(R.dropout(x, kw["p"], training=op == "dropout", generator=gen)[0])
        elif op == "bernoulli_t":
            outs.append(R.bernoulli(REC.make_input(kw["p"], dt), generator=gen))
        elif op == "bernoulli_tp":
            p = REC.make_input(kw["p"], dt)
            outs.append(R.bernoulli(p, p_scalar=kw["scalar"], generator=gen))
        elif op == "bernoulli_t_":
            p = REC.make_input(kw["p"], dt)
            outs.append(R.bernoulli_(p.shape, p, dtype=kw["out"], generator=gen))
        elif op in (
            "xavier_uniform_",
            "xavier_normal_",
            "kaiming_uniform_",
            "kaiming_normal_",
            "init_uniform_",
            "init_normal_",
            "trunc_normal_",
            "orthogonal_",
        ):
            args = {k: v for k, v in kw.items() if k not in ("shape", "dtype")}
            outs.append(getattr(R, op)(kw["shape"], **args, dtype=dt, generator=gen))
        elif op == "constant_":
            outs.append(R.constant_(kw["shape"], kw["val"], dtype=dt))
        elif op == "linear":
            w, b = R.init_linear(gen, kw["in"], kw["out"], kw["bias"], dt)
            outs += [w] + ([b] if b is not None else [])
        elif op == "bilinear":
            w, b = R.init_bilinear(gen, kw["in1"], kw["in2"], kw["out"], dtype=dt)
            outs += [w, b]
        elif op == "conv":
            w, b = R.init_conv(
                gen,
                kw["in"],
                kw["out"],
                kw["k"],
                dims=kw["dims"],
                transposed=kw.get("transposed", False),
                dtype=dt,
            )
            outs += [w, b]
        elif op == "embedding":
            outs.append(R.init_embedding(gen, kw["num"], kw["dim"], kw["padding_idx"], dt))
        elif op == "rnn":
            params = R.init_rnn(
                gen,
                kw["mode"],
                kw["in"],
                kw["hidden"],
                kw["layers"],
                bidirectional=kw["bi"],
                proj_size=kw.get("proj", 0),
                dtype=dt,
            )
            outs += [p for _, p in params]
        elif op == "rnn_cell":
            outs += [
                p for _, p in R.init_rnn_cell(gen, kw["mode"], kw["in"], kw["hidden"], dtype=dt)
            ]
        elif op == "layer_norm":
            w, b = R.init_layer_norm(kw["shape"], dtype=dt)
            outs += [w, b]
        else:
            raise KeyError(op)
    return outs


def _half_op(a: np.ndarray, b: np.ndarray, op: Any) -> np.ndarray:
    """a op b of two tensors of one float dtype, as ATen computes it (half in float, rounded)."""
    if a.dtype == np.float16:
        return op(a.astype(np.float32), b.astype(np.float32)).astype(np.float16)
    return op(a, b).astype(a.dtype)


# ---------------------------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------------------------


def mismatches(case: str, outs: list[np.ndarray]) -> list[str]:
    """Every output of `case` whose bytes (with dtype and shape) differ from PyTorch's."""
    problems = []
    expected_count = sum(1 for k in HASHES if k.rsplit("#", 1)[0] == case)
    if len(outs) != expected_count:
        problems.append(f"{case}: {len(outs)} outputs, PyTorch gave {expected_count}")
    for i, out in enumerate(outs):
        key = REC.key(case, i)
        if key not in HASHES:
            continue
        if out.dtype == BF16:  # bfloat16 values in gradcli's array of them; recorded as float32
            out = out.astype(np.float32)
        if case.startswith(REC.TOLERANT) and out.dtype.kind == "f":
            want = EXPECTED[key]
            eps = np.finfo(want.dtype).eps
            scale = max(1.0, float(np.max(np.abs(want), initial=0)))
            if want.shape != out.shape or np.max(np.abs(out - want), initial=0) > 8 * eps * scale:
                problems.append(f"{key}: beyond 8 eps of PyTorch")
            continue
        if REC.digest(out) != HASHES[key]:
            detail = ""
            if key in EXPECTED.files:
                want = EXPECTED[key]
                if want.shape == out.shape and want.dtype == out.dtype:
                    bad = (
                        np.flatnonzero(
                            want.view(np.uint8).reshape(want.size, -1)
                            != out.view(np.uint8).reshape(out.size, -1)
                        )
                        if out.size
                        else []
                    )
                    detail = f" (first differing byte {bad[0] if len(bad) else '?'})"
                else:
                    detail = f" ({out.dtype}{out.shape} vs {want.dtype}{want.shape})"
            problems.append(f"{key}: differs from PyTorch{detail}")
    return problems


CASE_NAMES = sorted(REC.CASES)


@pytest.mark.parametrize("case", CASE_NAMES)
def test_matches_recorded_pytorch(case: str) -> None:
    assert mismatches(case, run_ours(REC.CASES[case])) == []


@pytest.mark.parametrize("case", CASE_NAMES)
def test_matches_live_pytorch(case: str) -> None:
    torch = pytest.importorskip("torch")
    if not torch.__version__.startswith("2.13"):
        pytest.skip(f"recorded for torch 2.13, found {torch.__version__}")
    theirs = REC.run_torch(REC.CASES[case])
    ours = run_ours(REC.CASES[case])
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if case.startswith(REC.TOLERANT) and b.dtype.kind == "f":
            scale = max(1.0, float(np.max(np.abs(b), initial=0)))
            assert np.max(np.abs(a - b), initial=0) <= 8 * np.finfo(b.dtype).eps * scale, (case, i)
        else:
            assert a.dtype == b.dtype and a.shape == b.shape, (case, i, a.dtype, b.dtype)
            assert a.tobytes() == b.tobytes(), (case, i)


def test_the_recorded_data_covers_the_brief() -> None:
    """Seeds, sizes and dtypes of the brief all appear among the recorded cases."""
    for seed in (0, 1, 42, 2**32 + 5, -7):
        for dt in ("float32", "float64"):
            for n in (1, 7, 15, 16, 17, 1000):
                assert f"floats/{seed}/{dt}/{n}" in REC.CASES
        for it in ("int64", "int32", "int16", "int8", "uint8"):
            assert f"ints/{seed}/{it}/1000" in REC.CASES
    # The grid: every sampler, seeds up to 2**63 - 1, empty to 10**5 elements.
    assert {0, 1, 42, 1234, 2**31 - 1, 2**32 + 5, 2**63 - 1} <= set(REC.GRID_SEEDS)
    assert {0, 1, 7, 15, 16, 17, 100, 1000, 10**5} <= set(REC.GRID_SIZES)
    for seed in REC.GRID_SEEDS:
        for n in REC.GRID_SIZES:
            for dt in ("float32", "float64"):
                ops = {op for op, _ in REC.CASES[f"grid/{seed}/{dt}/{n}"]}
                assert {"rand", "randn", "uniform_", "normal_", "exponential_", "geometric_"} <= ops
                assert {"log_normal_", "cauchy_", "bernoulli_", "random_"} <= ops
            assert f"grid-int/{seed}/{n}" in REC.CASES
        for dt in ("float32", "float64", "float16"):
            ops = {op for op, _ in REC.CASES[f"extra/{seed}/{dt}"]}
            assert {"like_randn", "poisson", "alpha_dropout", "feature_dropout"} <= ops
    assert len(HASHES) > 9000


# ---------------------------------------------------------------------------------------------
# The tester catches a one-bit error
# ---------------------------------------------------------------------------------------------


def _off_by_one_ulp(fn: Any) -> Any:
    def wrapped(*args: Any, **kwargs: Any) -> np.ndarray:
        out = np.array(fn(*args, **kwargs))
        flat = out.reshape(-1)
        flat[len(flat) // 2] = np.nextafter(flat[len(flat) // 2], np.inf)
        return out

    return wrapped


@pytest.mark.parametrize(
    ("target", "case"),
    [
        ("_box_muller16_f32", "floats/1/float32/1000"),
        ("_box_muller16_f64", "floats/42/float64/17"),
        ("_normal_scalar", "floats/0/float64/7"),
        ("_unit_f32", "floats/-7/float32/1"),
        ("_exponential_values", "floats/1/float64/15"),
    ],
)
def test_a_sampler_one_ulp_off_fails(
    monkeypatch: pytest.MonkeyPatch, target: str, case: str
) -> None:
    assert mismatches(case, run_ours(REC.CASES[case])) == []
    monkeypatch.setattr(R, target, _off_by_one_ulp(getattr(R, target)))
    assert mismatches(case, run_ours(REC.CASES[case])) != []


def test_a_generator_one_word_off_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    case = "interleave/0"
    original = R.Generator.random32

    def skewed(self: R.Generator, n: int) -> np.ndarray:
        out = original(self, n)
        return out ^ np.uint64(1) if n == 4 else out  # one bit of randint's draws

    monkeypatch.setattr(R.Generator, "random32", skewed)
    assert mismatches(case, run_ours(REC.CASES[case])) != []


# ---------------------------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------------------------


def test_seeds_wrap_and_overflow_as_in_pytorch() -> None:
    assert R.Generator().manual_seed(-1).initial_seed() == 2**64 - 1
    assert R.Generator().manual_seed(-(2**63)).initial_seed() == 2**63
    assert R.Generator().manual_seed(True).initial_seed() == 1
    assert R.manual_seed(3.0).initial_seed() == 3  # torch.manual_seed calls int() first
    with pytest.raises(ValueError, match="Overflow"):
        R.Generator().manual_seed(2**64)
    with pytest.raises(ValueError, match="Overflow"):
        R.Generator().manual_seed(-(2**63) - 1)
    with pytest.raises(RuntimeError, match="expected a long"):
        R.Generator().manual_seed(1.5)  # type: ignore[arg-type]
    # Seeds equal modulo 2**32 give the same stream, yet keep their own initial_seed.
    a, b = R.Generator().manual_seed(5), R.Generator().manual_seed(2**32 + 5)
    assert np.array_equal(R.rand(9, generator=a), R.rand(9, generator=b))
    assert a.initial_seed() != b.initial_seed()


def test_default_generator_and_seed() -> None:
    assert R.Generator().initial_seed() == R.DEFAULT_SEED
    g = R.Generator(fallback_seed=7)
    assert g.seed() == 7 and g.initial_seed() == 7
    R.manual_seed(11)
    assert R.initial_seed() == 11
    first = R.rand(3)
    R.manual_seed(11)
    assert np.array_equal(first, R.rand(3))


def test_state_round_trip_and_clone() -> None:
    g = R.Generator().manual_seed(3)
    R.randn(5, generator=g)  # caches a double
    state = g.get_state()
    assert state.dtype == np.uint8 and state.shape == (R.STATE_SIZE,)
    h = g.clone()
    assert np.array_equal(h.get_state(), state)
    x = R.randn(40, generator=g)
    assert np.array_equal(R.randn(40, generator=h), x)
    g.set_state(state)
    assert np.array_equal(R.randn(40, generator=g), x)
    assert np.array_equal(R.Generator().set_state(g.get_state()).get_state(), g.get_state())


def test_invalid_states_are_refused() -> None:
    g = R.Generator()
    with pytest.raises(RuntimeError, match="size"):
        g.set_state(np.zeros(10, np.uint8))
    with pytest.raises(TypeError):
        g.set_state(np.zeros(R.STATE_SIZE, np.int64))
    bad = g.get_state()
    bad[8:12] = np.array([0], "<i4").view(np.uint8)  # left_ = 0
    with pytest.raises(RuntimeError, match="Invalid mt19937 state"):
        g.set_state(bad)


def test_float_cache_round_trips() -> None:
    g = R.Generator()
    state = g.get_state()
    state[5048:5052] = np.array([1.25], "<f4").view(np.uint8)
    state[5052] = 1
    assert np.array_equal(R.Generator().set_state(state).get_state(), state)


def test_empty_tensors_draw_nothing() -> None:
    g = R.Generator().manual_seed(0)
    before = g.get_state()
    assert R.rand(0, 3, generator=g).shape == (0, 3)
    assert R.randn(0, generator=g, dtype="float64").shape == (0,)
    assert R.randint(0, 5, (0,), generator=g).shape == (0,)
    assert R.bernoulli_((2, 0), 0.5, generator=g).shape == (2, 0)
    assert np.array_equal(g.get_state(), before)


def test_dtype_names() -> None:
    g = R.Generator()
    assert R.rand(2, dtype="torch.float64", generator=g).dtype == np.float64
    assert R.rand(2, dtype="double", generator=g).dtype == np.float64
    assert R.randint(0, 3, (2,), dtype="long", generator=g).dtype == np.int64
    assert R.rand(2, dtype=np.float32, generator=g).dtype == np.float32
    with pytest.raises(TypeError):
        R.rand(2, dtype="complex32")
    # a complex dtype draws its parts: each number's real then imaginary part, in turn
    parts = R.rand(2, 2, dtype="float32", generator=R.Generator().manual_seed(3))
    z = R.rand(2, dtype="complex64", generator=R.Generator().manual_seed(3))
    assert z.dtype == np.complex64
    assert np.array_equal(z.real, parts[:, 0]) and np.array_equal(z.imag, parts[:, 1])


# ---------------------------------------------------------------------------------------------
# Layout
# ---------------------------------------------------------------------------------------------


def test_fill_order() -> None:
    # torch.empty(3, 4).t(): shape (4, 3), strides (1, 4): memory order is column by column.
    order = R.fill_order((4, 3), (1, 4))
    assert order.tolist() == [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11]
    assert R.fill_order((2, 3), (3, 1)).tolist() == list(range(6))
    assert R.is_contiguous((1, 5), (99, 1)) and not R.is_contiguous((4, 3), (1, 4))
    # An interleaved layout: dims sorted by stride, not elements by address.
    assert R.fill_order((3, 2), (2, 3)).tolist() == [0, 2, 4, 1, 3, 5]


def test_strided_normal_takes_the_scalar_path() -> None:
    g1, g2 = R.Generator().manual_seed(0), R.Generator().manual_seed(0)
    transposed = R.normal_((4, 5), generator=g1, strides=(1, 4))
    memory_order = R.normal_(20, generator=g2, strides=(2,))  # non-contiguous 1-D: scalar path
    assert np.array_equal(transposed.T.reshape(-1), memory_order)


# ---------------------------------------------------------------------------------------------
# The arithmetic underneath
# ---------------------------------------------------------------------------------------------


def _exact_fma(a: float, b: float, c: float) -> float:
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def test_fma64_is_correctly_rounded() -> None:
    rng = np.random.default_rng(0)
    a = rng.standard_normal(4000) * 2.0 ** rng.integers(-20, 20, 4000)
    b = rng.standard_normal(4000)
    c = -a * b * (1 + rng.standard_normal(4000) * 1e-9)  # heavy cancellation
    c[::2] = rng.standard_normal(2000)
    got = R._fma64(a, b, c)
    want = [_exact_fma(x, y, z) for x, y, z in zip(a.tolist(), b.tolist(), c.tolist())]
    assert got.tolist() == want


def test_fma32_is_correctly_rounded_at_midpoints() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal(20000).astype(np.float32)
    b = rng.standard_normal(20000).astype(np.float32)
    c = rng.standard_normal(20000).astype(np.float32)
    # Products whose sum with c lands exactly on a float32 midpoint after rounding to float64.
    c[:100] = np.float32(1.0)
    a[:100] = np.float32(2.0**-24) * (1 + np.float32(2.0**-23) * np.arange(100, dtype=np.float32))
    b[:100] = np.float32(1.0) + np.float32(2.0**-23)
    got = R._fma32(a, b, c)
    exact = [
        Fraction(x) * Fraction(y) + Fraction(z)
        for x, y, z in zip(a.tolist(), b.tolist(), c.tolist())
    ]
    want = np.array([_round32(v) for v in exact], np.float32)
    assert np.array_equal(got, want)


def _round32(x: Fraction) -> float:
    """Round an exact rational to float32, nearest-even."""
    if x == 0:
        return 0.0
    sign = -1 if x < 0 else 1
    x = abs(x)
    e = math.floor(math.log2(x))
    while Fraction(2) ** e > x:
        e -= 1
    while Fraction(2) ** (e + 1) <= x:
        e += 1
    scaled = x / Fraction(2) ** (e - 23)
    q, r = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * r
    if twice > scaled.denominator or (twice == scaled.denominator and q % 2 == 1):
        q += 1
    return sign * float(Fraction(q) * Fraction(2) ** (e - 23))


@pytest.mark.parametrize("clog", [True, False])
def test_bulk_log_equals_libm(clog: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bulk log, whether the doubts below 0.5 go to NumPy's complex log or to math.log."""
    if clog and not R._numpy_clog_is_libm():
        pytest.skip("NumPy's complex log is not libm's log here")
    monkeypatch.setattr(R, "_NUMPY_CLOG_IS_LIBM", clog)
    rng = np.random.default_rng(2)
    x = 1.0 - (rng.integers(0, 2**53, 200_000).astype(np.float64) * 2.0**-53)
    # next to 1 at every scale, where log(x) is small (both sides of 1)
    near_one = 1.0 + rng.choice([-1.0, 1.0], 4000) * 2.0 ** -rng.uniform(6.0, 52.0, 4000)
    spread = np.exp(rng.uniform(-700.0, 700.0, 2000))
    edges = [1.0, 2.0**-53, 0.5, 1 - 2.0**-53, 1 - 2.0**-8, 1 + 2.0**-8, 2.0, 0.25, 1e-310, 0.0]
    x = np.concatenate([x, near_one, spread, edges])
    with np.errstate(divide="ignore"):
        want = [math.log(v) if v else -math.inf for v in x.tolist()]
    assert R._libm_log(x).tolist() == want


# ---------------------------------------------------------------------------------------------
# The module itself
# ---------------------------------------------------------------------------------------------


def test_imports_only_numpy_and_the_standard_library() -> None:
    # (and core.fma64, the float64 fused multiply-add it shares with the ops layer, and
    # core.layout, PyTorch's layout rules, which themselves import only NumPy: the module
    # still fits in any layer; and core.cpu with core.mklgels, the avx2 family's switch and
    # MKL's QR for orthogonal_, imported when it runs)
    from gradcli.base import numpyhost
    from gradcli.core import cpu, fma64, layout, mklgels

    allowed = set(sys.stdlib_module_names) | {"numpy", "__future__"}
    for path, relative in (
        (R.__file__, {"core.fma64", "core.layout", "core.cpu", "core.mklgels"}),
        (fma64.__file__, set()),
        # its message for a misspelt GRADCLI_KERNELS; the processor's flags (standard library)
        (cpu.__file__, {"base.errors", "base.numpyhost"}),
        (numpyhost.__file__, set()),
        (mklgels.__file__, set()),
        (layout.__file__, set()),
    ):
        names = set()
        for node in ast.walk(ast.parse(Path(path).read_text())):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    assert node.module in relative, f"{path}: imports .{node.module}"
                    continue
                names.add((node.module or "").split(".")[0])
        assert names <= allowed, (path, names - allowed)


def test_import_builds_no_tables() -> None:
    """Importing builds no tables: the generator, the libm probe and the log table are made on
    first use. (Checked by state, in a fresh process: time belongs in benchmarks/.)"""
    code = (
        "import sys, numpy; before = set(sys.modules); import gradcli.surface.random as R; "
        "print(R._default, R._NUMPY_TRIG_IS_LIBM, R._NUMPY_CLOG_IS_LIBM, R._LOG_TABLE, "
        "'decimal' in set(sys.modules) - before); R._log_table(); "
        "print(R._LOG_TABLE is not None)"
    )
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env=env, check=True
    )
    assert out.stdout.split() == ["None", "None", "None", "None", "False", "True"], out.stdout


@pytest.mark.skipif(
    os.environ.get("GRADCLI_EXHAUSTIVE") != "1", reason="about a minute: GRADCLI_EXHAUSTIVE=1"
)
def test_fast_float32_box_muller_is_exact_on_every_input() -> None:
    """The fast lanes round each fused multiply-add once from float64; this is exact for all
    2**24 values u1 = 1 - k / 2**24 and u2 = k / 2**24 can take (the reference functions
    _log_f32 and _sincos_f32 correct float64 sums that land on a float32 midpoint)."""
    k = np.arange(1 << 24, dtype=np.float32) * np.float32(2.0**-24)
    for start in range(0, 1 << 24, 1 << 18):
        u = k[start : start + (1 << 18)]
        u1, u2 = np.float32(1) - u, u.copy()
        cos, sin = R._cephes_lanes(u1, u2)
        radius = np.sqrt(np.float32(-2.0) * R._log_f32(u1))
        want_sin, want_cos = R._sincos_f32(R._TWO_PI_F32 * u2)
        assert np.array_equal(cos.astype(np.float32), radius * want_cos + np.float32(0))
        assert np.array_equal(sin.astype(np.float32), radius * want_sin + np.float32(0))


def test_fast_float32_box_muller_matches_the_reference() -> None:
    """A sample of the exhaustive test above, run always."""
    u = np.random.MT19937(7).random_raw(1 << 15).astype(np.uint32) >> np.uint32(8)
    u = u.astype(np.float32) * np.float32(2.0**-24)
    u1, u2 = np.float32(1) - u, u[::-1].copy()
    cos, sin = R._cephes_lanes(u1, u2)
    radius = np.sqrt(np.float32(-2.0) * R._log_f32(u1))
    want_sin, want_cos = R._sincos_f32(R._TWO_PI_F32 * u2)
    assert np.array_equal(cos.astype(np.float32), radius * want_cos + np.float32(0))
    assert np.array_equal(sin.astype(np.float32), radius * want_sin + np.float32(0))


def test_unit_log_tables_give_the_general_logs_bits() -> None:
    """_accurate_log(unit=True) looks its constants up by exponent and index at once: the same
    values and the same doubts as the general path, on x in [2**-53, 1] (Box-Muller's 1 - u)."""
    k = np.random.MT19937(11).random_raw(1 << 15).astype(np.int64) << np.int64(21)
    k &= R._MASK53
    k >>= np.arange(k.size, dtype=np.int64) % 54  # every exponent down to 2**-53
    k[:4] = [0, 1, (1 << 53) - 1, 1 << 52]
    x = (np.int64(1 << 53) - k) * 2.0**-53
    outs, doubts = [np.empty(x.size) for _ in range(2)], [np.empty(x.size, bool) for _ in range(2)]
    R._accurate_log(x, outs[0], doubts[0], near1=False)
    R._accurate_log(x, outs[1], doubts[1], near1=False, unit=True)
    assert outs[0].tobytes() == outs[1].tobytes()
    assert np.array_equal(doubts[0], doubts[1])


class _Words:
    """A stand-in generator whose low53 returns chosen integers, piece by piece."""

    def __init__(self, ints: np.ndarray) -> None:
        self.ints, self.at = ints, 0

    def low53(self, n: int) -> np.ndarray:
        self.at += n
        return self.ints[self.at - n : self.at].copy()


@pytest.mark.parametrize(("mean", "std"), [(0.0, 1.0), (0.5, 2.0)])
def test_float64_box_muller_from_integers_is_the_uniforms_path(mean: float, std: float) -> None:
    """The drawing path works on the integers k of the uniforms k * 2**-53 (1 - u as
    (2**53 - k) * 2**-53, the angle as k * (2 pi 2**-53), "near 1" as k < 2**45); it must give
    the bits of the path that starts from the uniforms, on every kind of input: u = 0 (a zero
    radius: +0.0, not -0.0), u within 2**-8 of 0, the largest u, and over several pieces."""
    n = 2 * R._LANES + 48
    ints = np.random.MT19937(3).random_raw(n).astype(np.int64) << np.int64(21)
    ints &= R._MASK53
    special = [0, 1, 2, (1 << 45) - 1, 1 << 45, (1 << 53) - 1, 1 << 52, 12345]
    for j, value in enumerate(special):
        ints[16 * j + j % 8] = value  # the first half of a block: the 1 - u lanes
        ints[16 * j + 8 + j % 8] = special[-1 - j]  # the angle lanes
    ints[16 * 9 : 16 * 9 + 8] = 0  # a whole half of zero radii
    ints[16 * 10 + 8 : 16 * 11] = 0  # angles of 0: sin 0 times the radius
    want = R._box_muller16_f64(ints.astype(np.uint64), mean, std)
    got = R._box_muller16_f64(n, mean, std, _Words(ints))  # type: ignore[arg-type]
    assert got.tobytes() == want.tobytes()
    assert not np.signbit(got[want == 0]).any() or mean != 0.0


# ---------------------------------------------------------------------------------------------
# Live: random sequences of draws on random views (a red team against PyTorch itself)
# ---------------------------------------------------------------------------------------------

_FUZZ_OPS = ("uniform_", "normal_", "exponential_", "geometric_", "log_normal_", "cauchy_")
_FUZZ_OPS += ("bernoulli_", "random_", "randn", "rand", "randint", "randperm", "randn_like")
_FUZZ_OPS += ("rand_like", "multinomial", "dropout", "normal")


def _fuzz_step(torch: Any, rnd: Any, op: str, dt: str) -> tuple[Any, np.ndarray]:
    """One draw on both sides: (PyTorch's tensor, gradcli's array)."""
    nd = rnd.randint(1, 3)
    base = tuple(rnd.randint(1, 7) for _ in range(nd))
    step = rnd.choice([1, 1, 2])
    perm = tuple(rnd.sample(range(nd), nd))
    tv = REC.make_view(functools.partial(torch.empty, dtype=getattr(torch, dt)), base, step, perm)
    nv = REC.make_view(functools.partial(np.empty, dtype=np.float32), base, step, perm)
    shape, strides = nv.shape, tuple(st // 4 for st in nv.strides)
    view = {"dtype": dt, "strides": strides}
    n = rnd.choice([1, 5, 15, 16, 17, 33, 100])
    if op in ("uniform_", "normal_", "exponential_", "geometric_", "log_normal_", "cauchy_"):
        args = {"uniform_": (-1.5, 2), "normal_": (0.5, 2), "exponential_": (0.7,)}.get(op)
        args = args or {"geometric_": (0.4,), "log_normal_": (0.1, 0.4), "cauchy_": (1, 3)}[op]
        return getattr(tv, op)(*args), getattr(R, op)(shape, *args, **view)
    if op == "bernoulli_":
        return tv.bernoulli_(0.35), R.bernoulli_(shape, 0.35, **view)
    if op == "random_":
        return tv.random_(-20, 20), R.random_(shape, -20, 20, **view)
    if op in ("randn", "rand"):
        return getattr(torch, op)(n, dtype=getattr(torch, dt)), getattr(R, op)(n, dtype=dt)
    if op == "randint":
        high = rnd.choice([2, 100, 2**28, 2**40])
        return torch.randint(0, high, (n,)), R.randint(0, high, n)
    if op == "randperm":
        return torch.randperm(n), R.randperm(n)
    if op in ("randn_like", "rand_like"):
        like = {"dtype": dt, "strides": R.dense_strides(shape, strides)}
        return getattr(torch, op)(tv), getattr(R, op.removesuffix("_like"))(shape, **like)
    if op == "multinomial":
        p = np.abs(np.sin(np.arange(12) + n)).astype(dt).reshape(3, 4)
        k, rep = rnd.randint(1, 4), rnd.random() < 0.5
        return torch.multinomial(torch.from_numpy(p), k, rep), R.multinomial(p, k, rep)
    x = np.cos(np.arange(math.prod(shape))).astype(dt).reshape(shape)
    if op == "dropout":
        p = rnd.choice([0.1, 0.5, 0.9])
        return torch.nn.functional.dropout(torch.from_numpy(x), p), R.dropout(x, p)[0]
    return torch.normal(torch.from_numpy(x), 1.5), R.normal(x, 1.5)


@pytest.mark.parametrize("fuzz_seed", range(4))
def test_random_sequences_match_live_pytorch(fuzz_seed: int) -> None:
    torch = pytest.importorskip("torch")
    import random

    rnd = random.Random(fuzz_seed)
    for _ in range(50):
        seed = rnd.choice(
            [0, 1, 42, 1234, 2**31 - 1, 2**32 + 5, 2**63 - 1, -7, rnd.getrandbits(40)]
        )
        torch.manual_seed(seed)
        R.manual_seed(seed)
        done = []
        for _ in range(rnd.randint(1, 6)):
            op, dt = rnd.choice(_FUZZ_OPS), rnd.choice(["float32", "float64", "float16"])
            theirs, ours = _fuzz_step(torch, rnd, op, dt)
            done.append((op, dt, tuple(ours.shape)))
            theirs = theirs.contiguous().numpy()
            assert theirs.shape == ours.shape and np.array_equal(
                theirs.astype(np.float64), ours.astype(np.float64), equal_nan=True
            ), (seed, done)
        assert np.array_equal(torch.get_rng_state().numpy(), R.get_rng_state()), (seed, done)
