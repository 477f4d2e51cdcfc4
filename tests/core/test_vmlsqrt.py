"""core.vmlsqrt: PyTorch's sqrt bits (MKL's AVX-512 vsSqrt/vdSqrt) against recorded torch output,
the rsqrt14 model's own properties, the places gradcli uses it, and (with torch installed on an
AVX-512 machine with MKL) a live cross-check."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gradcli.core import vmlsqrt
from gradcli.ops import elementwise as E
from gradcli.surface import kernels as K

DATA = Path(__file__).parent / "data" / "vmlsqrt_torch.txt"
_TYPES = {"f": (np.float32, np.uint32), "d": (np.float64, np.uint64)}


def _recorded(kind: str) -> tuple[np.ndarray, np.ndarray]:
    dt, ut = _TYPES[kind]
    xs, rs = [], []
    for line in DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        k, x, r = line.split()
        if k == kind:
            xs.append(int(x, 16))
            rs.append(int(r, 16))
    return np.array(xs, dtype=ut).view(dt), np.array(rs, dtype=ut).view(dt)


def _same_bits(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Equal bit patterns, any nan equal to any nan."""
    ut = np.uint32 if a.dtype == np.float32 else np.uint64
    return (a.view(ut) == b.view(ut)) | (np.isnan(a) & np.isnan(b))


@pytest.mark.parametrize("kind", ["f", "d"])
def test_recorded_torch_bits(kind: str) -> None:
    x, expected = _recorded(kind)
    assert x.size > 2000
    with np.errstate(invalid="ignore"):
        got = vmlsqrt.sqrt(x)
        naive = np.sqrt(x)
    assert got.dtype == x.dtype
    bad = ~_same_bits(got, expected)
    assert not bad.any(), (x[bad][:5], got[bad][:5], expected[bad][:5])
    # the recorded cases are hard: the correctly rounded root misses over a thousand of them,
    # always by one ulp downwards
    ut = np.int32 if kind == "f" else np.int64
    miss = ~_same_bits(naive, expected)
    assert miss.sum() >= 1500
    steps = expected[miss].view(ut) - naive[miss].view(ut)
    assert set(steps.tolist()) == {-1}


@pytest.mark.parametrize("kind", ["f", "d"])
def test_shapes_layouts_and_scalars(kind: str) -> None:
    x, expected = _recorded(kind)
    x, expected = x[:1200], expected[:1200]
    m = x.reshape(40, 30)
    assert _same_bits(vmlsqrt.sqrt(m.T), expected.reshape(40, 30).T).all()
    assert _same_bits(vmlsqrt.sqrt(m[::3, 1::2]), expected.reshape(40, 30)[::3, 1::2]).all()
    one = vmlsqrt.sqrt(np.asarray(x[7]))
    assert np.shape(one) == () and one.dtype == x.dtype and one == expected[7]
    assert vmlsqrt.sqrt(x[:0].reshape(0, 3)).shape == (0, 3)
    # other dtypes: NumPy's own (correctly rounded) root
    h = np.linspace(0, 9, 50, dtype=np.float16)
    assert _same_bits(vmlsqrt.sqrt(h).astype(np.float32), np.sqrt(h).astype(np.float32)).all()


def test_rsqrt14_model_is_a_14_bit_estimate() -> None:
    # every (exponent parity, top 15 fraction bits) the estimate looks at, in [1, 4)
    top = np.arange(1 << 16, dtype=np.int64)
    s = ((top << 8) + (127 << 23)).astype(np.int32).view(np.float32).astype(np.float64)
    k, scaled, r = vmlsqrt._reduce(s)
    assert (k == 0).all() and (scaled == s).all()
    # the instruction's documented bound, attained (its largest error is 5.9997e-5)
    err = np.abs(r * np.sqrt(s) - 1)
    assert err.max() < 2.0**-14 and err.max() > 5.99e-5
    # 17 significant bits
    assert (np.ldexp(r, 17 + 1) % 1 == 0).all()


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_exact_squares_and_scaling(dt: type) -> None:
    rng = np.random.default_rng(3)
    root = rng.integers(1, 1 << 11, 5000).astype(dt)
    assert (vmlsqrt.sqrt(root * root) == root).all()
    assert (
        vmlsqrt.sqrt(dt(4.0) ** np.arange(-60, 60).astype(dt)) == dt(2.0) ** np.arange(-60, 60)
    ).all()
    # sqrt(4x) = 2 sqrt(x) while nothing underflows
    x = (rng.random(20000) * 4 + 0.01).astype(dt)
    assert (vmlsqrt.sqrt(x * dt(4.0**20)) == vmlsqrt.sqrt(x) * dt(2.0**20)).all()


def test_the_sqrt_record_power_half_and_optimiser_kernel_use_it() -> None:
    x, expected = _recorded("f")
    hard = x[:1500]
    want = expected[:1500]
    assert (E.sqrt.forward(hard) == want).all()
    assert (E._pow_fwd(hard, 0.5) == want).all()
    assert (K.sqrt(hard) == want).all()
    # rsqrt and x ** -0.5 are 1 / (correctly rounded root), as ATen's rsqrt kernel
    assert (E._pow_fwd(hard, -0.5) == np.float32(1) / np.sqrt(hard)).all()
    assert (E.rsqrt.forward(hard) == np.float32(1) / np.sqrt(hard)).all()


def test_live_against_torch() -> None:
    torch = pytest.importorskip("torch")
    if torch.backends.cpu.get_cpu_capability() != "AVX512" or not torch.backends.mkl.is_available():
        pytest.skip("PyTorch's sqrt bits are MKL's AVX-512 ones only on such a machine")
    rng = np.random.default_rng()
    for dt, ut, top in [
        (np.float32, np.uint32, 0x7F800000),
        (np.float64, np.uint64, 0x7FF0000000000000),
    ]:
        x = np.concatenate(
            [
                (rng.random(100_000) * 2).astype(dt),
                rng.integers(0, 2 * top, 100_000, dtype=ut).view(dt),
            ]
        )
        want = torch.from_numpy(x).sqrt().numpy()
        with np.errstate(invalid="ignore"):
            got = vmlsqrt.sqrt(x)
        bad = ~_same_bits(got, want)
        assert not bad.any(), x[bad][:5]


# float64 roots PyTorch 2.13 printed on Zen 4 (MKL's generic vdSqrt), where the AVX-512 model
# gives another last bit: the zen4/avx2 families take that kernel's model (core.amd64; its
# bit-for-bit test: tests/ops/test_amd64.py), not the AVX-512 one, for float64
_ZEN4_ROOTS = [
    ("0x1.4509fc7a4b196p-14", "0x1.20761f199a8a9p-7"),
    ("0x1.24144953703a7p-10", "0x1.1171f9b5783ddp-5"),
    ("0x1.032b93b3bbe3ap-14", "0x1.01948a3798e49p-7"),
    ("0x1.0494b5536b9dap-13", "0x1.6d437408bb4a2p-7"),
]


def test_float64_on_the_amd_families(monkeypatch: pytest.MonkeyPatch) -> None:
    from gradcli.core import cpu

    x = np.array([float.fromhex(a) for a, _ in _ZEN4_ROOTS])
    want = np.array([float.fromhex(r) for _, r in _ZEN4_ROOTS])
    monkeypatch.setenv(cpu.ENV, "avx512")
    assert not _same_bits(vmlsqrt.sqrt(x), want).any()
    for family in ("zen4", "avx2"):
        monkeypatch.setenv(cpu.ENV, family)
        assert _same_bits(vmlsqrt.sqrt(x), want).all()
