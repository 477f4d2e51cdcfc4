"""The shortcuts of the float32 kernels for small arrays and ordinary values give the general
path's bits: each is checked here against the path it skips, on random and special inputs."""

from __future__ import annotations

import numpy as np

from gradcli.core import sleef32

F32 = np.float32
SPECIAL = np.array(
    [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1e-45, 1e-40, 88.0, 88.7, 89.0, -100.0,
     100.0, 100.5, -103.9, -104.0, -104.5, -110.0, 3e38, -3e38],
    dtype=F32,
)  # fmt: skip


def _bits(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, F32).view(np.uint32)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return np.array_equal(_bits(a), _bits(b))


def _inputs(rng: np.random.Generator) -> list[np.ndarray]:
    out = [np.zeros(0, F32), SPECIAL[:1].copy(), np.array([0.5], F32), np.zeros((2, 3), F32)]
    out.append(np.array([0, 0.5, 1, -1, 2**-20, -(2**-30), 1e-45], F32))  # exact sums
    for n in (1, 2, 3, 8, 31, 32, 33, 40, 100):
        for scale in (0.01, 1.0, 10.0, 60.0):
            out.append((rng.standard_normal(n) * scale).astype(F32))
    return out


def test_exp_kernels_plain_path_matches_the_general_one() -> None:
    # An array with every element in range takes the plain path; the same elements beside one
    # special value (NaN, inf, out of range) take the general one: equal bits.
    rng = np.random.default_rng(3)
    for f in (sleef32.expf, sleef32.glibc_expf):
        for x in _inputs(rng):
            both = f(np.concatenate([x.reshape(-1), SPECIAL]))
            assert _same(f(x).reshape(-1), both[: x.size])
        for i in range(SPECIAL.size):  # alone, and beside ordinary values
            assert _same(f(SPECIAL[i : i + 1]), both[x.size + i :][:1])


def test_optimizer_add_direct_fma_matches_the_general_fma() -> None:
    # surface.kernels.add for two float32 arrays of one shape calls the exact fma at once;
    # the general path (broadcast, reshape, the random module's fma) gives the same bits.
    from gradcli.surface import kernels as K

    rng = np.random.default_rng(5)
    arrays = [np.zeros((0, 3), F32), np.array([1.5], F32), SPECIAL]
    arrays += [
        (rng.standard_normal((4, n)) * 10.0 ** rng.integers(-40, 30)).astype(F32)
        for n in (1, 10, 70)
    ]
    for a in arrays:
        b = (
            rng.permutation(np.resize(SPECIAL, a.size)).reshape(a.shape)
            if a.size < 30
            else (rng.standard_normal(a.shape).astype(F32))
        )
        for alpha in (-1, -0.01, -0.5, 3.0, -1e-3, 2.5e-38):
            with np.errstate(all="ignore"):  # (as every kernel runs: overflow is inf)
                got = K.add(a, b, alpha)
                want = K._fma_general(b, K.scalar(alpha, a.dtype), a, a.dtype)
            assert got.dtype == want.dtype and got.shape == want.shape
            assert np.array_equal(np.isnan(got), np.isnan(want))
            assert _same(got[~np.isnan(got)], want[~np.isnan(want)])


def test_small_float32_fma_matches_the_general_fma() -> None:
    # surface.kernels.fma for small float32 operands calls the exact fma with the operand of
    # the result's shape first (lerp's scalar weight, addcmul, broadcasting ones); the general
    # path (broadcast, flattened, the random module's fma) gives the same bits and shape.
    from gradcli.surface import kernels as K

    rng = np.random.default_rng(11)

    def pick(shape: tuple[int, ...]) -> np.ndarray:
        n = int(np.prod(shape))
        if rng.random() < 0.3:
            return rng.permutation(np.resize(SPECIAL, n)).reshape(shape)
        v = rng.standard_normal(shape) * 10.0 ** rng.integers(-40, 30)
        return np.asarray(v.astype(F32))

    shapes = [
        ((4, 3), (4, 3), (4, 3)),
        ((), (5,), (5,)),  # lerp: a Python number times a vector
        ((7,), (), (7,)),
        ((3, 1), (1, 4), (3, 4)),  # broadcasting both: the general path
        ((2, 300), (2, 300), (300,)),  # past fma32's small arrays
        ((6,), (6,), ()),
        ((0, 3), (0, 3), (0, 3)),
        ((), (), ()),
    ]
    for sa, sb, sc in shapes:
        for _ in range(20):
            a, b, c = pick(sa), pick(sb), pick(sc)
            # exact sums and midpoints: a's products landing on c's halfway points
            if rng.random() < 0.3 and a.shape == c.shape and a.size:
                with np.errstate(all="ignore"):  # (inf * 0 in the special values)
                    c = (-(a.astype(np.float64) * b)).astype(F32)
            with np.errstate(all="ignore"):
                got = K.fma(a, b, c, np.dtype(F32))
                want = K._fma_general(a, b, c, np.dtype(F32))
            assert got.dtype == want.dtype and got.shape == want.shape
            assert np.array_equal(np.isnan(got), np.isnan(want))
            assert _same(got[~np.isnan(got)], want[~np.isnan(want)])
    # ties of the double rounding: float32 products whose float64 sum with c is a midpoint
    a = np.array([1 + 2**-23] * 4, F32)
    b = np.array([1 + 2**-23, 1 - 2**-24, 3, 1.5], F32)
    c = np.array([2**-24, -(2**-48), 2**-22, -(2**-25)], F32)
    assert _same(K.fma(a, b, c, np.dtype(F32)), K._fma_general(a, b, c, np.dtype(F32)))


def test_mkl_logf_exact_steps_are_the_fused_ones() -> None:
    # vmsLn's r = fma(x, c, -1) and hi = fma(-k, ln2_hi, T0[j]) are computed without the fma
    # emulation (the first exact in float64, the second's product exact in float32): the same
    # bits as fma32 on every normal exponent and mantissa step.
    from gradcli.core import mkl32
    from gradcli.core.powf32 import fma32

    rng = np.random.default_rng(9)
    x = rng.integers(0x00800000, 0x7F000000, 200_000, dtype=np.uint32).view(F32)
    b = x.view(np.int32)
    i = mkl32._rcp_step()[(b & 0x7FFFFF) >> 7]
    e = (b >> 23) - 127
    c = np.ldexp(F32(1) - i.astype(F32) / F32(64), -e).astype(F32)
    k = (-e - (i > 0)).astype(F32)
    t0 = mkl32._LOG_T[0][np.where(i > 0, 64 - i - 32, 0)]
    assert _same((x.astype(np.float64) * c - 1.0).astype(F32), fma32(x, c, F32(-1)))
    assert _same(-k * mkl32._LOG_LN2_HI + t0, fma32(-k, mkl32._LOG_LN2_HI, t0))


def test_mkl_logf_of_arguments_near_one_matches_the_mixed_path() -> None:
    # x in [0.5, 2) alone has every k zero (its lo term is the table's); beside arguments far
    # from 1, the fma computes it: the same bits.
    from gradcli.core import mkl32

    rng = np.random.default_rng(4)
    for n in (1, 4, 33):
        x = rng.uniform(0.5, 2.0, n).astype(F32)
        far = np.array([1e-30, 3.0, 1e30, 0.25], F32)
        assert _same(mkl32.logf(x), mkl32.logf(np.concatenate([x, far]))[:n])


def test_first_block_of_lanes_is_the_fused_product_from_zero() -> None:
    # linalg._row_lanes with one block (k <= 16) writes the float32 products: fma(x, w, +0)
    # by definition, -0 products made +0; with NaN, inf, zeros of both signs, subnormals.
    from gradcli.core.powf32 import fma32
    from gradcli.ops import linalg

    rng = np.random.default_rng(6)
    for m, k, n in ((1, 1, 2), (4, 2, 10), (4, 10, 10), (3, 16, 5)):
        x = rng.standard_normal((m, k)).astype(F32)
        w = rng.standard_normal((n, k)).astype(F32)
        x.flat[::3] = rng.choice(SPECIAL, x[:, ::1].flat[::3].size)
        w.flat[1::4] = -0.0
        with np.errstate(all="ignore"):  # (as the kernels run)
            lanes = linalg._row_lanes(x, w, 1)
        assert lanes.shape == (m, n, 16) and not lanes[..., k:].any()
        with np.errstate(all="ignore"):
            want = fma32(x[:, None, :] * np.ones((1, n, 1), F32), w[None, :, :], F32(0))
        assert np.array_equal(np.isnan(lanes[..., :k]), np.isnan(want))
        ok = ~np.isnan(want)
        assert _same(lanes[..., :k][ok], want[ok])


def test_matmul_rule_on_arrays_matches_the_recorded_products() -> None:
    # A pass that records nothing computes matmul's two gradients on the arrays; recording
    # (create_graph's mode) computes them with the ops: the same bits, shapes and dtypes.
    from gradcli.core.tensor import Tensor, enable_grad, no_grad
    from gradcli.ops import linalg

    rng = np.random.default_rng(8)
    shapes = [(4, 2, 10), (4, 10, 10), (4, 10, 1), (1, 4, 10), (10, 4, 2), (1, 1, 1), (3, 0, 2)]
    shapes += [(2, 40, 3), (20, 5, 17), (5, 400, 3)]
    for dt in (np.float32, np.float64):
        for m, k, n in shapes:
            x = Tensor(rng.standard_normal((m, k)).astype(dt), requires_grad=True)
            w = Tensor(rng.standard_normal((n, k)).astype(dt), requires_grad=True)
            if x.data.size:
                x.data.flat[::5] = rng.choice(SPECIAL, x.data.flat[::5].size)
            y = Tensor(w.data.T, requires_grad=True)  # nn.Linear's layout
            g = Tensor(rng.standard_normal((m, n)).astype(dt))
            out = Tensor(np.zeros((m, n), dt))
            with np.errstate(all="ignore"):
                with no_grad():
                    fast = linalg._matmul_vjp(g, out, x, y)
                with enable_grad():
                    slow = linalg._matmul_vjp(g, out, x, y)
            for a, b in zip(fast, slow):
                assert a.dtype == b.dtype and a.shape == b.shape
                # (a column-major operand's gradient is a transposed product: a view)
                bits_a = np.ascontiguousarray(a.data).view(np.uint8)
                assert np.array_equal(bits_a, np.ascontiguousarray(b.data).view(np.uint8))


def test_unbroadcast_on_arrays_matches_the_recorded_sum() -> None:
    # Undoing broadcasting in a pass that records nothing sums on the array; recording, with
    # the ops: the same bits (PyTorch's order of the sum), shape and dtype.
    from gradcli.core.autograd import unbroadcast
    from gradcli.core.tensor import Tensor, enable_grad, no_grad

    rng = np.random.default_rng(10)
    cases = [((4, 10), (10,), 0), ((4, 10), (1, 10), 0), ((3, 4, 5), (4, 1), 0), ((2, 3), (), 0)]
    cases += [((2, 4, 10), (10,), 1), ((40, 33), (33,), 0), ((0, 3), (3,), 0), ((1,), (1,), 0)]
    for dt in (np.float32, np.float64):
        for gshape, shape, nb in cases:
            g = Tensor((rng.standard_normal(gshape) * 1e3).astype(dt))
            if g.data.size > 3:
                g.data.flat[::7] = rng.choice(SPECIAL, g.data.flat[::7].size)
            with no_grad():
                fast = unbroadcast(g, shape, nb)
            with enable_grad():
                slow = unbroadcast(g, shape, nb)
            assert fast.dtype == slow.dtype and fast.shape == slow.shape
            assert np.array_equal(
                fast.data.reshape(-1).view(np.uint8), slow.data.reshape(-1).view(np.uint8)
            )


def test_fma_chain_takes_the_exact_steps_at_a_midpoint() -> None:
    # linalg._fma_chain's float64 pass is redone with the exact fma where a sum lands on a
    # float32 midpoint: columns whose second step is a double-rounding case (1 * c, then
    # a * b + c: the float64 sum on a float32 midpoint, the exact one just below) give the
    # exact chain's bits, beside ordinary columns.
    from gradcli.core.powf32 import fma32
    from gradcli.ops import linalg

    rng = np.random.default_rng(12)
    for t in rng.integers(1, 60, 4) * 2.0**-21:
        a, b = F32(1 + t), F32((1 - t) * 2.0**-18)
        c = (64 + (2 * rng.integers(0, 1000, 8) + 1) * 2.0**-17).astype(F32)
        c[::3] = rng.standard_normal(3).astype(F32)  # ordinary columns
        x = np.array([[1.0, a]], F32)
        y = np.stack([c, np.full(8, b, F32)])  # (2, 8)
        want = fma32(np.full(8, a, F32), y[1], fma32(np.ones(8, F32), y[0], np.zeros(8, F32)))
        with np.errstate(all="ignore"):
            got = linalg._fma_chain(x, y)
        assert _same(got[0], want)
        assert not _same(got[0], (c.astype(np.float64) + float(a) * float(b)).astype(F32))


def test_permute_rule_on_arrays_matches_the_recorded_op() -> None:
    from gradcli.core.tensor import Tensor, enable_grad, no_grad
    from gradcli.ops import shape

    rng = np.random.default_rng(13)
    for gshape, perm in (
        ((10, 4), (1, 0)),
        ((2, 3, 4), (2, 0, 1)),
        ((5, 2, 3), (1, 0)),
        ((0, 2), (1, 0)),
    ):
        g = Tensor(rng.standard_normal(gshape).astype(F32))
        out = Tensor(np.zeros(gshape, F32))
        with no_grad():
            (fast,) = shape.permute.vjp(g, out, Tensor(np.zeros(gshape, F32)), perm=perm)
        with enable_grad():
            (slow,) = shape.permute.vjp(g, out, Tensor(np.zeros(gshape, F32)), perm=perm)
        assert fast.shape == slow.shape and fast.data.strides == slow.data.strides
        assert np.array_equal(fast.data, slow.data)


def _gemv_blocks_reference(p4, p6, d, a, s):
    from gradcli.ops.linalg import _fma32

    for j in range(len(p4)):
        s = _fma32(p4[j], _fma32(p6[j], s))
        s = s + d[j]
        s = s + a[j]
    return s


def test_gemv_blocks_rounded_through_float64_match_the_exact_fmas() -> None:
    # ops.linalg._gemv_blocks (the column kernel's running sum) rounds each fused sum through
    # float64 and redoes the blocks with _fma32 when a sum lands on a float32 midpoint: the
    # same bits as _fma32 at every step, on random products and on crafted midpoints.
    from gradcli.ops.linalg import _gemv_blocks

    rng = np.random.default_rng(13)

    def products(shape: tuple[int, ...]) -> np.ndarray:
        x = rng.standard_normal(shape).astype(F32)
        y = rng.standard_normal(shape).astype(F32)
        return x.astype(np.float64) * y

    for blocks, n in ((1, 16), (12, 16), (5, 32), (3, 48)):
        for crafted in (False, True):
            p4, p6 = products((blocks, n)), products((blocks, n))
            d = rng.standard_normal((blocks, n)).astype(F32)
            a = rng.standard_normal((blocks, n)).astype(F32)
            s = rng.standard_normal(n).astype(F32)
            if crafted:
                # s = 2^30 + 2^7 and p6 = 2^6 - 2^-24 (a product of two float32s): the
                # float64 sum is the midpoint 2^30 + 3 * 2^6, which rounds to even (2^30 +
                # 2^8) where the exact sum (below the midpoint) rounds to 2^30 + 2^7
                s[3] = F32(2.0**30 + 2.0**7)
                p6[0, 3] = float(F32(2.0**6 * (1 - 2.0**-15))) * float(F32(1 + 2.0**-15))
                assert p6[0, 3] == 2.0**6 - 2.0**-24
            got = _gemv_blocks(p4, p6, d, a, s.copy())
            want = _gemv_blocks_reference(p4, p6, d, a, s.copy())
            assert _same(got, want)
            if crafted:
                # (the crafted step is one the rounding through float64 gets wrong)
                from gradcli.ops.linalg import _fma32

                exact = _fma32(p6[0, 3:4], s[3:4])[0]
                assert F32(p6[0, 3] + np.float64(s[3])) != exact == F32(2.0**30 + 2.0**7)


def test_mse_rule_on_arrays_matches_the_recorded_ops() -> None:
    # ops.loss._mse_vjp in a pass that records nothing computes on the arrays (the ops' own
    # forwards) and only the wanted gradients; with grad mode on it records the same ops as
    # tensors: the same bits, dtype and shape, in float32 and float64, both reductions,
    # broadcasting targets, special values.
    from gradcli.core.tensor import Tensor, enable_grad, no_grad
    from gradcli.ops.loss import _mse_vjp

    rng = np.random.default_rng(17)
    for dt in (np.float32, np.float64):
        for sx, sy in (((4, 1), (4, 1)), ((3, 5), (5,)), ((), ()), ((2, 3), (1, 3)), ((7,), ())):
            for reduction in ("mean", "sum"):
                for wants in ((True, False), (True, True), (False, True)):
                    x = (rng.standard_normal(sx) * 10.0 ** rng.integers(-20, 20)).astype(dt)
                    y = rng.standard_normal(sy).astype(dt)
                    if x.size > 2:
                        x.reshape(-1)[:2] = (np.inf, 1e38)
                    g = np.asarray(rng.standard_normal(), dtype=dt)
                    tx, ty = Tensor(x), Tensor(y)
                    tx.requires_grad, ty.requires_grad = wants
                    out = Tensor(np.asarray(0, dt))
                    with enable_grad():
                        want = _mse_vjp(Tensor(g), out, tx, ty, reduction)
                    with no_grad():
                        got = _mse_vjp(Tensor(g), out, tx, ty, reduction)
                    for w, gt, needed in zip(want, got, wants):
                        if not needed:
                            assert gt is None
                            continue
                        assert gt.data.dtype == w.data.dtype and gt.shape == w.shape
                        assert np.ascontiguousarray(gt.data).tobytes() == (
                            np.ascontiguousarray(w.data).tobytes()
                        )


def test_one_row_chain_by_blas_matches_the_emulation() -> None:
    # ops.linalg._fma_chain of one row (g.t() @ h of nn.Linear(k, 1), the column kernel's
    # last columns) is computed as row 0 of a 2-row product that blas32 proves (or emulates):
    # the emulated one-row chain's bits, from zero, for inner sizes 1 to 384 and special values.
    from gradcli.ops.linalg import _fma_chain, _fma_chain_emulated, _gemv_n

    rng = np.random.default_rng(19)
    for k, n in ((1, 2), (4, 2), (32, 8), (100, 15), (384, 3), (7, 40)):
        for special in (False, True):
            x = (rng.standard_normal((1, k)) * 10.0 ** rng.integers(-15, 15)).astype(F32)
            y = rng.standard_normal((k, n)).astype(F32)
            if special:
                y.reshape(-1)[: min(6, y.size)] = SPECIAL[[0, 1, 2, 4, 5, 18]][: min(6, y.size)]
                x[0, 0] = -0.0
            with np.errstate(all="ignore"):
                got = _fma_chain(x, y)
                want = _fma_chain_emulated(x, y)
                assert got.shape == want.shape == (1, n)
                assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
                # the column kernel from zero: its last n % 16 columns are that chain
                v = x[0]
                g = _gemv_n(v, y)
                assert np.array_equal(
                    g[n - n % 16 :].view(np.uint32), want[0, n - n % 16 :].view(np.uint32)
                )


def test_tanh_polynomial_chain_matches_the_fused_steps() -> None:
    # core.mkl32._tanh_poly (vmsTanh's polynomial as one float64 chain, None when a sum is in
    # doubt) gives _tanh_poly_steps' bits (each fused step by fma32) wherever it answers, and
    # tanhf (which falls back to the steps) matches the steps everywhere, special values too.
    from gradcli.core import mkl32

    rng = np.random.default_rng(23)

    def reference(x: np.ndarray) -> np.ndarray:
        ax = np.abs(x)
        i = np.clip((ax.view(np.int32) & 0x7FE00000) - 0x3D400000, 0, 0x03E00000) >> 21
        y = ax - mkl32._TANH_B[i]
        q = mkl32._tanh_poly_steps(y, i)
        v = np.copysign(q + mkl32._TANH_P0[i], x)
        v = np.where(np.isinf(x), np.copysign(F32(1), x), v)
        return np.where(np.isnan(x), x, v).astype(F32)

    answered = 0
    with np.errstate(all="ignore"):
        for x in _inputs(rng) + [SPECIAL, np.array([0.5, 1, 2, 0.25, 9.0, -3.0], F32)]:
            x = x.astype(F32)
            assert _same(mkl32.tanhf(x), reference(x))
            ax = np.abs(x)
            i = np.clip((ax.view(np.int32) & 0x7FE00000) - 0x3D400000, 0, 0x03E00000) >> 21
            y = ax - mkl32._TANH_B[i]
            q = mkl32._tanh_poly(y, i)
            if q is not None:
                answered += 1
                assert _same(q, mkl32._tanh_poly_steps(y, i))
        for scale in (1e-3, 0.1, 1.0, 3.0, 8.0):  # every table interval
            x = (rng.standard_normal((7, 50)) * scale).astype(F32)
            assert _same(mkl32.tanhf(x[0, 0].reshape(())), reference(x[0, 0].reshape(())))
            assert _same(mkl32.tanhf(x), reference(x))
    assert answered >= 20  # (the chain answers for ordinary values)


def test_few_lane_halves_match_the_sixteen_lanes() -> None:
    # ops.linalg._few_lane_halves (nn.Linear's few-row product with k <= 16 in the "halves" /
    # "pairs" kernels) gives the 16-lane sum by halves' bits, and the "pairs" kernel's even rows
    # (two sets of lanes) are the same for k <= 16: NaNs, infinities and signed zeros too.
    from gradcli.ops import linalg as LA

    rng = np.random.default_rng(29)
    for m, n in ((4, 2), (2, 3), (10, 3), (5, 7), (1, 4)):
        for k in (1, 2, 3, 5, 8, 9, 16):
            for special in (False, True):
                x = (rng.standard_normal((m, k)) * 10.0 ** rng.integers(-25, 25)).astype(F32)
                w = rng.standard_normal((n, k)).astype(F32)
                if special:
                    x.reshape(-1)[: min(4, x.size)] = np.array([-0.0, np.nan, np.inf, 1e-30], F32)[
                        : min(4, x.size)
                    ]
                    w[0, 0] = -np.inf
                    # products that round to -0 in float32 (a lane of -0)
                    x[-1] = F32(-1e-30)
                    w[-1] = F32(1e-20)
                with np.errstate(all="ignore"):
                    want = LA._lane_halves(LA._row_lanes(x, w, 1))
                    got = LA._few_lane_halves(x, w)
                    assert got.shape == want.shape and _same(got, want)
                    two = LA._lane_halves(LA._row_lanes(x[0::2], w, 2))
                    assert _same(two, want[0::2])


def test_row_halves_over_the_used_lanes_match_all_sixteen() -> None:
    # ops.linalg._row_halves(v, used) (the gemv kernel's last block of lanes, zeros past
    # `used`) gives the 16-lane sum by halves' bits: -0, NaN and infinite lanes too.
    from gradcli.ops import linalg as LA

    rng = np.random.default_rng(31)
    lanes = np.array([-0.0, np.nan, np.inf, -np.inf, 1e-45, -1e-45, 3e38, -3e38], F32)
    for used in range(1, 17):
        for _ in range(30):
            v = np.zeros((6, 16), F32)
            v[:, :used] = (rng.standard_normal((6, used)) * 10.0 ** rng.integers(-40, 38)).astype(
                F32
            )
            if rng.random() < 0.5:
                v[:, :used] = rng.choice(lanes, size=(6, used))
            with np.errstate(all="ignore"):
                assert _same(LA._row_halves(v, used), LA._row_halves(v))


def test_basic_index_shortcut_matches_normalize_index() -> None:
    # `indexing._basic` (integers in range and slices of integers, one per dimension) gives the
    # index `normalize_index` gives, and declines everything else (that path then checks it).
    import itertools

    from gradcli.core.tensor import Tensor
    from gradcli.surface import indexing as I

    rng = np.random.default_rng(5)
    parts = [
        0, 1, -1, 2, -3, 3, 7, -8, True, None, Ellipsis, np.int64(1),
        slice(None), slice(1, None), slice(None, -1), slice(0, 2), slice(-2, None),
        slice(None, None, 2), slice(1, 9, 3), slice(None, None, -1), slice(None, None, 0),
        slice(1.0, 2), [0, 1],
    ]  # fmt: skip
    taken = declined = 0
    for shape in [(), (3,), (2, 3), (4, 1, 3), (0, 2)]:
        x = Tensor(rng.standard_normal(shape))
        for n in range(0, 4):
            for key in itertools.product(parts, repeat=n):
                for k in (key, key[0]) if n == 1 else (key,):
                    got = I._basic(x.shape, k)
                    if got is None:
                        declined += 1
                        continue
                    taken += 1
                    assert got == I.normalize_index(x, k), (shape, k)
                    want = np.broadcast_to(np.zeros((), np.int8), x.shape)[got].shape
                    assert x.data[got].shape == want
    assert taken > 1000 and declined > 1000, (taken, declined)


def test_split_loop_short_rows_shortcut_matches_the_masked_path() -> None:
    # Rows shorter than a vector step (a chunk of an LSTM's gates, a column) go to the scalar
    # function whole; the masked path they skip splits each row at its whole steps of 32.
    from gradcli.ops import act32

    def masked(vec, scalar, a: np.ndarray) -> np.ndarray:
        if a.ndim > 1 and not a.flags.c_contiguous:  # (TensorIterator's loop order first)
            order = sleef32._loop_order((a,))
            if order != tuple(range(a.ndim)):
                got = masked(vec, scalar, np.transpose(a, order))
                return np.transpose(got, np.argsort(order))
        run, adjacent = sleef32._inner_run((a,))
        flat = np.ascontiguousarray(a, dtype=F32).reshape(-1)
        n = flat.size
        out = np.empty(n, F32)
        if run >= n:  # one run: its whole steps by the vector function, if adjacent (a
            # strided row goes through the scalar one whole: measured, sigmoid of
            # x[:, ::2] with one row is the scalar function's bits in every element)
            nv, run = (sleef32.vector_count(n) if adjacent else 0), n
        else:
            nv = sleef32.vector_count(run) if adjacent else 0
        on_vec = np.arange(n) % run < nv
        out[on_vec] = vec(flat[on_vec])
        out[~on_vec] = scalar(flat[~on_vec])
        return out.reshape(a.shape)

    rng = np.random.default_rng(11)
    vec, scalar = act32._sigmoid_vec, act32._sigmoid_scalar
    seen = 0
    for rows in (1, 3, 16):
        for h in (1, 3, 8, 31, 32, 33, 40, 70):
            full = (rng.standard_normal((rows, 4 * h)) * 6).astype(F32)
            full[0, 0] = SPECIAL[seen % SPECIAL.size]
            for view in (full[:, h : 2 * h], full[:, ::2], full.T[:h], full[:, :h].T, full):
                want = masked(vec, scalar, view)
                got = act32.sigmoid(view)
                assert _same(got, want), (rows, h, view.shape, view.strides)
                seen += 1
    assert seen == 3 * 8 * 5


def test_fma64_shortcuts_match_the_general_path() -> None:
    # `_fma64` of three float64 arrays of one shape skips the broadcast, and tests the result
    # alone for values outside the emulation's range (a product that is not finite makes the
    # result not finite): the same bits as the general path, whose test read the product too.
    from fractions import Fraction

    from gradcli.core import fma64

    def general(a, b, c):
        a, b, c = np.broadcast_arrays(*(np.asarray(v, np.float64) for v in (a, b, c)))
        with np.errstate(all="ignore"):
            p, e = fma64._two_prod(a, b)
            s, t = fma64._two_sum(p, c)
            v, verr = fma64._two_sum(t, e)
            fix = (verr != 0) & ((v.view(np.int64) & 1) == 0)
            v = v.copy()
            v[fix] = np.nextafter(v[fix], np.copysign(np.inf, verr[fix]))
            out = s + v
            plain = ~np.isfinite(out) | ~np.isfinite(p) | (out == 0)
            return np.where(plain, a * b + c, out)

    rng = np.random.default_rng(8)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, -1e308, 1e-308, 5e-324, 1.0])
    n = 3000
    a = rng.standard_normal(n) * 2.0 ** rng.integers(-30, 30, n)
    b = rng.standard_normal(n)
    c = -a * b * (1 + rng.standard_normal(n) * 1e-12)  # heavy cancellation
    c[::3] = rng.standard_normal(n)[::3]
    for arr in (a, b, c):
        pick = rng.random(n) < 0.1
        arr[pick] = rng.choice(special, int(pick.sum()))
    got = fma64._fma64(a, b, c)
    want = general(a, b, c)
    assert np.array_equal(got.view(np.int64), want.view(np.int64))
    # the finite results are the exact sums rounded once (the sign of an exact zero as IEEE's)
    for x, y, z, r in zip(a.tolist(), b.tolist(), c.tolist(), got.tolist()):
        if all(np.isfinite((x, y, z))) and np.isfinite(r) and abs(x * y) < 1e300:
            assert r == float(Fraction(x) * Fraction(y) + Fraction(z))
    # broadcast operands and 0-d ones take the general path: the same values
    assert np.array_equal(fma64._fma64(a[:5], 2.0, c[:5]), general(a[:5], 2.0, c[:5]))
    zero_d = fma64._fma64(np.array(3.0), np.array(-0.0), np.array(-0.0))
    assert zero_d.shape == () and np.signbit(zero_d)


def test_kernels_fma_float64_shortcut_matches_the_general_path() -> None:
    from gradcli.surface import kernels

    rng = np.random.default_rng(9)
    f64 = np.dtype(np.float64)
    for sa, sb, sc in [
        ((5,), (5,), (5,)),
        ((3, 4), (), (3, 4)),
        ((), (), ()),
        ((2, 1), (1, 3), (3,)),
    ]:
        for _ in range(20):
            a, b, c = (rng.standard_normal(s) * 10.0 ** rng.integers(-5, 5) for s in (sa, sb, sc))
            got = kernels.fma(a, b, c, f64)
            want = kernels._fma_general(np.asarray(a), np.asarray(b), np.asarray(c), f64)
            assert got.shape == want.shape and got.dtype == want.dtype
            assert np.array_equal(np.asarray(got).view(np.int64), np.asarray(want).view(np.int64))
    # a Python number operand, as the optimisers pass a learning rate
    x, y = rng.standard_normal(7), rng.standard_normal(7)
    got = kernels.fma(x, -0.001, y, f64)
    want = kernels._fma_general(x, np.asarray(-0.001), y, f64)
    assert np.array_equal(got, want)


def test_versions_of_matches_the_general_form() -> None:
    # `core.op.versions_of` for one and two inputs without its list: the same tuple (or None).
    import itertools

    from gradcli.core.op import versions_of
    from gradcli.core.tensor import Tensor

    def general(inputs, out):
        vs = [t._vc[0] if t._vc is not None else 0 for t in inputs]
        vs.append(out._vc[0] if out._vc is not None else 0)
        return tuple(vs) if any(vs) else None

    def tensor(v):
        t = Tensor(np.zeros(2))
        t._vc = None if v is None else [v]
        return t

    seen = 0
    for n in (1, 2, 3):
        for vs in itertools.product((None, 0, 2), repeat=n + 1):
            ts = [tensor(v) for v in vs]
            inputs, out = tuple(ts[:-1]), ts[-1]
            assert versions_of(inputs, out) == general(inputs, out)
            seen += 1
    assert seen == 9 + 27 + 81


def test_fma64_of_zero_dimensional_operands() -> None:
    # 0-d operands (the gradient of tanh of a 0-d float64 tensor) whose sum needs the step to
    # odd: NumPy's arithmetic gives scalars there, which the step cannot be assigned into.
    from fractions import Fraction

    from gradcli.core.fma64 import _fma64

    rng = np.random.default_rng(12)
    for _ in range(500):
        a, b, c = (float(v) for v in rng.standard_normal(3) * [1.0, 1.0, 1e-3])
        want = float(Fraction(a) * Fraction(b) + Fraction(c))
        assert float(_fma64(np.array(a), np.array(b), np.array(c))) == want
        assert float(_fma64(np.negative(np.array(a)), np.array(a), 1.0)) == float(
            1 - Fraction(a) ** 2
        )


def _small_operands(rng: np.random.Generator, m: int, k: int, n: int):
    # products whose sums cancel and round (wide exponents), zeros of both signs, a start
    x = (rng.standard_normal((m, k)) * 2.0 ** rng.integers(-12, 12, (m, k))).astype(F32)
    y = (rng.standard_normal((k, n)) * 2.0 ** rng.integers(-12, 12, (k, n))).astype(F32)
    x[rng.random((m, k)) < 0.1] = -0.0
    y[rng.random((k, n)) < 0.1] = 0.0
    start = (rng.standard_normal((m, n)) * 100).astype(F32)
    return x, y, start


def test_avx2_small_kernel_at_once_matches_the_loop(monkeypatch) -> None:
    # gemm_avx2._small forms every rounded product at once and sums them by `accumulate`
    # (peeled elements too) up to _SMALL_AT_ONCE products; the loop over k gives the same bits
    # on shapes with and without peeled rows, with and without a start, x row- or column-major.
    from gradcli.ops import gemm_avx2 as G

    rng = np.random.default_rng(11)
    shapes = [(1, 1, 1), (2, 3, 2), (4, 2, 3), (3, 8, 5), (5, 17, 6), (50, 1, 10), (10, 50, 1)]
    shapes += [(7, 9, 11), (2, 24, 9), (6, 40, 7), (3, 100, 5)]
    for m, k, n in shapes:
        x, y, start = _small_operands(rng, m, k, n)
        for xs in (x, np.asfortranarray(x)):
            for s in (None, start):
                for at, ld in ((0, None), (1, None), (3, n + 2)):
                    fast = G._small(xs, y, s, at, ld)
                    with monkeypatch.context() as mp:
                        mp.setattr(G, "_SMALL_AT_ONCE", 0)
                        G._PEELS.clear()
                        slow = G._small(xs, y, s, at, ld)
                    G._PEELS.clear()
                    assert _same(fast, slow), (m, k, n, at, ld, s is None)


def test_nll_cascade_by_scalars_matches_the_arrays(monkeypatch) -> None:
    # softmax32.cascade_sum adds a few items as NumPy scalars; the array path (segments padded
    # and summed side by side) gives the same bits, float32 and float64, with targets ignored
    # (gaps in the index), at batch sizes around the cascade's steps of 16 and 256.
    from gradcli.ops import softmax32 as S

    rng = np.random.default_rng(13)
    for dtype in (np.float32, np.float64):
        for n in (1, 2, 4, 15, 16, 17, 33, 200, 256, 257, 300):
            v = (rng.standard_normal(n) * 2.0 ** rng.integers(-20, 20, n)).astype(dtype)
            v[rng.random(n) < 0.1] = -0.0
            for index in (np.arange(n), np.flatnonzero(rng.random(3 * n) < 0.35)[:n]):
                vals = v[: index.size]
                fast = S.cascade_sum(vals, index)
                with monkeypatch.context() as mp:
                    mp.setattr(S, "_SCALAR_CASCADE", -1)
                    slow = S.cascade_sum(vals, index)
                assert type(fast) is type(slow) and fast.tobytes() == slow.tobytes(), (n, dtype)


def test_sleef_logf_float64_chain_matches_the_exact_fmas(monkeypatch) -> None:
    # sleef32.logf runs its fused steps as one float64 chain for small arrays (`_Chain`) and
    # again with the exact fma where a sum may sit on a midpoint; the exact fmas alone give
    # the same bits, for ordinary values, specials, powers of two and values near 1 and 1.5.
    rng = np.random.default_rng(17)
    arrays = [SPECIAL, np.abs(SPECIAL), np.array([1.0, 1.5, 0.75, 2.0, 4.0, 2**-126], F32)]
    arrays.append(np.nextafter(np.array([1.0, 1.5, 0.75, 3.0], F32), F32(2)))
    arrays.append((1 + rng.standard_normal(3000) * 1e-3).astype(F32))
    for n in (1, 2, 4, 16, 100, 1000):
        arrays.append(np.exp(rng.standard_normal(n) * 20).astype(F32))
        arrays.append(rng.random(n).astype(F32) * 4)
    chained = 0
    for a in arrays:
        fast = sleef32.logf(a)
        chain = sleef32._Chain()
        with np.errstate(all="ignore"):
            sleef32._logf_steps(a, chain)
        chained += chain.exact()
        with monkeypatch.context() as mp:
            mp.setattr(sleef32, "_CHAIN_MAX", -1)
            slow = sleef32.logf(a)
        assert _same(fast, slow)
    assert chained >= len(arrays) // 2  # (the chain is the path most arrays take)


def test_float64_chain_says_inexact_exactly_where_fma32_fixes_a_sum() -> None:
    # `_Chain` rounds each step's float64 sum to float32 and says whether every one of them is
    # fma32's; on double-rounding ties (float64 sums on a float32 midpoint that were rounded)
    # it must say no; yes means every result is fma32's.
    from gradcli.core.powf32 import fma32

    rng = np.random.default_rng(19)
    # (1 + 2**-12)**2 and (1 + 2**-13)(1 + 2**-11) are float32 midpoints (a 1 at 2**-24): plus
    # a tiny c the float64 sum rounds back onto the midpoint, and float32 then to even, down,
    # where the fma rounds up; minus c the two agree (a sum rounded, but the same result)
    a = np.array([1 + 2**-12, 1 + 2**-13, 1 + 2**-12, 1 + 2**-13], F32)
    b = np.array([1 + 2**-12, 1 + 2**-11, 1 + 2**-12, 1 + 2**-11], F32)
    c = np.array([2**-80, 2**-70, -(2**-80), -(2**-70)], F32)
    cases = [(a[i : i + 1], b[i : i + 1], c[i : i + 1]) for i in range(4)]
    x = (rng.standard_normal(50) * 10).astype(F32)
    y = (rng.standard_normal(50) * 10).astype(F32)
    cases.append((x, y, -(x * y)))  # the product's exact error: a float32, a candidate
    cases.append((x, y, rng.standard_normal(50).astype(F32)))
    cases.append((SPECIAL, SPECIAL[::-1].copy(), SPECIAL))
    for p, q, r in cases:
        chain = sleef32._Chain()
        with np.errstate(all="ignore"):
            got = chain(p, q, r)
            want = fma32(p, q, r)
        if chain.exact():  # (it may say no where the rounding happened to be right)
            assert _same(got, want)
        if not _same(got, want):
            assert not chain.exact()
    differ = 0
    for p, q, r in cases[:5]:
        chain = sleef32._Chain()
        differ += not _same(chain(p, q, r), fma32(p, q, r))
        if p.size > 1:
            assert chain.exact()  # (an exact error, on a midpoint: no second try)
    assert differ >= 2


def test_linear_bias_after_the_product_where_the_avx2_kernel_adds_it_so(monkeypatch) -> None:
    # F.linear's sum keeps `x @ w.t() + bias` (the product of the matmul record, the bias added
    # once) where gemm_avx2.bias_after says mm(x, w.t(), bias) is that sum; it is, bit for bit,
    # on the dot and gemv kernels' shapes, and the chain kernel's (bias first: past 192 inner,
    # ((b + s0) + s1)) is not.
    from gradcli.ops import gemm_avx2 as G
    from gradcli.ops.linalg import _matmul_record

    monkeypatch.setenv("GRADCLI_KERNELS", "avx2")
    rng = np.random.default_rng(23)
    differ = 0
    shapes = [(1, 3, 1), (1, 5, 7), (2, 2, 2), (4, 2, 3), (3, 16, 1), (50, 10, 1), (8, 3, 11)]
    shapes += [
        (4, 2, 12),
        (6, 20, 16),
        (2, 300, 5),
        (64, 7, 3),
        (4, 5, 12),
        (12, 30, 40),
        (4, 400, 12),
    ]
    shapes += [(5, 500, 13), (6, 390, 20)]
    for m, k, n in shapes:
        x = (rng.standard_normal((m, k)) * 2.0 ** rng.integers(-8, 8, (m, k))).astype(F32)
        w = (rng.standard_normal((n, k)) * 2.0 ** rng.integers(-8, 8, (n, k))).astype(F32)
        b = (rng.standard_normal(n) * 2.0 ** rng.integers(-4, 12, n)).astype(F32)
        b[rng.random(n) < 0.2] = -0.0
        after = G.bias_after(x, w.T)
        assert after == (m < 4 or n < 12)
        with np.errstate(all="ignore"):
            fused = G.mm(x, w.T, b)
            added = _matmul_record(x, w.T) + b
        if after:
            assert _same(fused, added), (m, k, n)
        else:
            differ += not _same(fused, added)
    assert differ >= 2  # (the chain kernel's bias is the first term: other last bits)


def test_exp_polynomial_chain_with_exact_midpoints_matches_the_fused_steps(monkeypatch) -> None:
    # expf's polynomial as one float64 chain: a sum on a float32 midpoint whose float64 sum was
    # exact (s = 0, softmax's max element: every step's sum is its constant) keeps the chain;
    # its result is the six exact fmas' on reduced arguments, zeros among them.
    from gradcli.core.powf32 import fma32

    rng = np.random.default_rng(29)
    s = rng.uniform(-0.35, 0.35, 5000).astype(F32)
    s[:50] = 0.0
    s[50:60] = -0.0
    got = sleef32._exp_poly(s)
    assert got is not None
    tiny = (rng.standard_normal(20) * 1e-30).astype(F32)  # (sums rounded onto a constant)
    assert sleef32._exp_poly(tiny) is None
    assert sleef32._exp_poly(tiny * 1e20) is not None
    u = fma32(s, np.full(s.shape, sleef32._EXP_POLY[0]), np.full(s.shape, sleef32._EXP_POLY[1]))
    for c in sleef32._EXP_POLY[2:]:
        u = fma32(u, s, np.full(s.shape, c))
    want = fma32(s * s, u, s)
    assert _same(got, want)
    # a candidate whose sum was rounded sends the whole array to the exact steps
    monkeypatch.setattr(sleef32, "_rounded", lambda *a: True)
    assert sleef32._exp_poly(s) is None
    assert sleef32._exp_poly(s[100:200]) is not None  # (no candidate at all: no test)


def test_glibc_expf_by_python_floats_matches_the_arrays(monkeypatch) -> None:
    # glibc_expf of up to 16 elements in [-88, 88] runs in Python floats; the NumPy path gives
    # the same bits on random values, signed zeros, the ends of the range and tiny values.
    rng = np.random.default_rng(31)
    cases = [np.array([0.0, -0.0, 88.0, -88.0, 1e-45, -1e-45, 0.5, -0.5], F32)]
    cases.append(np.array([np.log(2) / 64 * k for k in range(-8, 8)], F32))  # near r = +-1/2
    for n in (1, 3, 4, 12, 16):
        for scale in (1e-3, 1.0, 30.0, 87.0):
            cases.append(np.clip(rng.standard_normal(n) * scale, -88, 88).astype(F32))
    cases.append(rng.uniform(-88, 88, (4, 3)).astype(F32))
    for x in cases:
        fast = sleef32.glibc_expf(x)
        with monkeypatch.context() as mp:
            mp.setattr(sleef32, "_GLIBC_SCALARS", -1)
            slow = sleef32.glibc_expf(x)
        assert fast.shape == slow.shape and _same(fast, slow), x


def test_logf_error_steps_are_exact_in_float64() -> None:
    # logf's chain leaves its three error steps unchecked (`_Chain.error`: ln2_hi * e - sx,
    # t * nx - xx, 1 - dx * t): their float64 sums must be exact (two-sum error zero) for
    # every input, over the whole float32 range, specials and values near 1 among them.
    rng = np.random.default_rng(37)
    bits = rng.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32)
    near = (1 + rng.standard_normal(20_000) * 2.0 ** rng.integers(-24, -1, 20_000)).astype(F32)
    d = np.concatenate([bits.view(F32), near, SPECIAL, np.array([0.75, 1.5, 1.0, 2.0], F32)])
    seen = []

    class Checked(sleef32._Chain):
        def error(self, a, b, c):
            p = np.multiply(a, b, dtype=np.float64)
            s = p + c
            seen.append((s, p, c))
            return s.astype(F32)

    chain = Checked()
    with np.errstate(all="ignore"):
        sleef32._logf_steps(d, chain, chain.error)
        assert len(seen) == 3
        for s, p, c in seen:
            v = s - p
            e = (p - (s - v)) + (np.asarray(c, np.float64) - v)
            assert not (e[np.isfinite(e)] != 0).any()


def test_sleef_expf_and_logf_by_python_floats_match_the_arrays(monkeypatch) -> None:
    # expf and logf of up to 16 float32 elements run in Python floats (`_expf_scalars`,
    # `_logf_scalars`), giving up (None) outside their range or where a fused step's float64
    # sum sat on a midpoint and was rounded; the array paths give the same bits on softmax's
    # arguments and sums, the ends of the ranges, signed zeros, subnormal results and random
    # bit patterns (bench: 0 of 1.6 million differing, 0 of 1.2 million for logf).
    rng = np.random.default_rng(37)
    exp_cases = [np.array([0.0, -0.0, 88.0, -100.0, -87.5, -99.9, 1e-3, -0.3466], F32)]
    log_cases = [np.array([1.0, 1.5, 0.75, 2.0, 2**-126, 1e-45, 3.4e38, 1.4999999], F32)]
    for n in (1, 2, 4, 8, 16):
        for scale in (0.1, 1.0, 5.0, 30.0):
            exp_cases.append((-np.abs(rng.standard_normal(n)) * scale).astype(F32))
            log_cases.append(np.exp(rng.standard_normal(n) * scale).astype(F32))
        exp_cases.append(rng.uniform(-100, 88, n).astype(F32))
        bits = rng.integers(1, 0x7F800000, n).astype(np.uint32).view(F32)
        log_cases.append(bits)
    taken = {"exp": 0, "log": 0}
    for name, f, scalars, cases in (
        ("exp", sleef32.expf, sleef32._expf_scalars, exp_cases),
        ("log", sleef32.logf, sleef32._logf_scalars, log_cases),
    ):
        for x in cases:
            taken[name] += scalars(x.tolist()) is not None
            fast = f(x)
            with monkeypatch.context() as mp:
                mp.setattr(sleef32, "_SCALARS", -1)
                slow = f(x)
            assert fast.shape == slow.shape and _same(fast, slow), (name, x)
    assert taken["exp"] >= len(exp_cases) - 3 and taken["log"] == len(log_cases)
    # out of range, NaN, or a rounded midpoint: the array path
    assert sleef32._expf_scalars([88.5]) is None and sleef32._expf_scalars([float("nan")]) is None
    assert sleef32._logf_scalars([0.0]) is None and sleef32._logf_scalars([-1.0]) is None
    assert sleef32._expf_scalars([1e-30]) is None  # (u * s + c rounded onto the constant c)
    # a coefficient 0.1% off is seen, in exp and in log
    x = np.array([-0.3, -1.7, -2.2, 0.0], F32)
    good = sleef32._expf_scalars(x.tolist())
    y = [1.3, 2.7, 5.5, 11.0]
    good_log = sleef32._logf_scalars(y)
    c = list(sleef32._EXP_C)
    c[4] *= 1.001
    monkeypatch.setattr(sleef32, "_EXP_C", tuple(c))
    assert sleef32._expf_scalars(x.tolist()) != good
    c = list(sleef32._LOG_C)
    c[1] *= 1.001
    monkeypatch.setattr(sleef32, "_LOG_C", tuple(c))
    assert sleef32._logf_scalars(y) != good_log


def test_avx2_dots_of_inner_size_below_four_match_the_lanes(monkeypatch) -> None:
    # gemm_avx2._dots with an inner size of 1-3 (nn.Linear(2, 3)'s forward) adds each
    # output's products in order from zero, skipping the heads and lanes; those give the same
    # bits for every row alignment, x at several storage offsets and row strides.
    from gradcli.ops import gemm_avx2 as G

    rng = np.random.default_rng(41)
    for m, k, n in [(1, 1, 1), (4, 2, 3), (4, 3, 2), (7, 1, 9), (5, 3, 13), (2, 2, 1), (9, 3, 4)]:
        x = (rng.standard_normal((m, k)) * 3).astype(F32)
        x[0, 0] = -0.0
        w = rng.standard_normal((n, k)).astype(F32)
        w[-1, -1] = 0.0
        for at, ld in ((0, None), (1, None), (2, k + 1), (3, k + 3)):
            fast = G._dots(x, w, at, ld)
            with monkeypatch.context() as mp:
                mp.setattr(G, "_HEADS_ONLY", 0)
                G._GROUPS.clear()
                slow = G._dots(x, w, at, ld)
            G._GROUPS.clear()
            assert fast.shape == slow.shape and _same(fast, slow), (m, k, n, at, ld)


def test_fma32_of_a_few_elements_in_python_floats_matches_fma32() -> None:
    # powf32.fma32_few (an optimiser's p + alpha * grad of up to 16 elements, kernels.add)
    # gives fma32's bits, and gives up (None) on a sum rounded onto a float32 midpoint or not
    # finite; exact sums on midpoints (a zero gradient) are kept.
    from gradcli.core.powf32 import fma32, fma32_few

    rng = np.random.default_rng(43)
    taken = 0
    cases = []
    for k in (1, 2, 3, 6, 9, 16):
        cases.append(((rng.standard_normal(k) * 1e-3).astype(F32), F32(-0.1)))
        cases.append((rng.standard_normal(k).astype(F32), F32(-0.05)))
        cases.append((np.zeros(k, F32), F32(-0.5)))
    for a, b in cases:
        c = rng.standard_normal(a.shape).astype(F32)
        got = fma32_few(a, float(b), c)
        if got is not None:
            taken += 1
            assert _same(got, fma32(a, b, c)), (a, b, c)
    assert taken == len(cases)
    # a product a little off half an ulp of c = 1: the float64 sum rounded onto the midpoint
    a = np.array([float.fromhex("0x1.ffff7p-25")], F32)
    assert fma32_few(a, float.fromhex("0x1.000048p+0"), np.ones(1, F32)) is None
    assert fma32_few(np.array([np.inf], F32), 1.0, np.array([1.0], F32)) is None
    # the kernel's add takes it, and its bits are fma32's
    from gradcli.surface import kernels

    p, g = rng.standard_normal((3, 2)).astype(F32), rng.standard_normal((3, 2)).astype(F32)
    assert _same(kernels.add(p, g, alpha=-0.1), fma32(g, F32(-0.1), p))


def test_softmax_backward_fused_step_of_a_few_elements_matches_the_arrays(monkeypatch) -> None:
    # softmax32._fused (log_softmax's backward fma(-exp(y), sum(g), g), the tail of a row's
    # lanes) takes Python floats for up to 16 elements: the array fma's bits, with three
    # arrays of one shape (b a broadcast view too), signed zeros and infinities.
    from gradcli.core import powf32
    from gradcli.ops import softmax32

    rng = np.random.default_rng(47)
    for rows, n in [(1, 1), (4, 2), (2, 3), (3, 5), (2, 8), (4, 4)]:
        y = np.log(rng.random((rows, n)) + 1e-3).astype(F32)
        g = rng.standard_normal((rows, n)).astype(F32)
        g[0, 0] = -0.0
        for scale in (1.0, 1e-3):
            gs = (g * scale).astype(F32)
            fast = softmax32.softmax_backward32(gs, y, 1, True)
            with monkeypatch.context() as mp:
                mp.setattr(softmax32, "_FEW", -1)
                slow = softmax32.softmax_backward32(gs, y, 1, True)
            assert _same(fast, slow), (rows, n, scale)
        a, c = -np.exp(y), g
        b = np.broadcast_to(g.sum(1, keepdims=True), g.shape)
        assert _same(powf32.fma32_few(a, b, c), softmax32._fused_arrays(a, b, c))
    inf = np.array([np.inf, 1.0], F32)
    assert powf32.fma32_few(inf, inf, inf) is None


def test_log_softmax_rows_in_python_floats_match_the_arrays(monkeypatch) -> None:
    # softmax32's log_softmax of up to 16 elements in rows shorter than a vector runs in
    # Python floats (`_log_rows_scalars`); the arrays give the same bits on logits of several
    # scales and shapes; zeros, infinities and NaN take the arrays.
    from gradcli.ops import softmax32

    rng = np.random.default_rng(53)
    taken = 0
    for shape in [(1, 1), (4, 2), (2, 3), (3, 5), (2, 7), (16, 1), (1, 4, 3), (5,)]:
        for scale in (1e-3, 1.0, 10.0, 60.0):
            x = (rng.standard_normal(shape) * scale).astype(F32)
            dim = x.ndim - 1
            taken += softmax32._log_rows_scalars(x.reshape(-1).tolist(), shape[-1]) is not None
            fast = softmax32.softmax32(x, dim, True)
            with monkeypatch.context() as mp:
                mp.setattr(softmax32, "_FEW", -1)
                slow = softmax32.softmax32(x, dim, True)
            assert fast.shape == slow.shape and _same(fast, slow), (shape, scale)
    assert taken >= 20  # (tiny logits: an exp step rounded onto a constant, the arrays)
    for bad in (0.0, -0.0, np.inf, np.nan):
        assert softmax32._log_rows_scalars([1.0, bad], 2) is None


def test_avx2_small_and_gemv_shortcuts_of_short_inner_sizes_match(monkeypatch) -> None:
    # gemm_avx2: `_small` with an inner size below 8 skips its peel plan (no group of 8: the
    # peeled elements' additions are the others'); `_gemv`'s last n mod 4 outputs with no
    # step of lanes (inner size below 12) are summed at once. Both give the bits of the paths
    # they skip, for peeled rows (odd row lengths, offsets), starts, and one column or row.
    from gradcli.ops import gemm_avx2 as G

    rng = np.random.default_rng(59)
    for m, k, n in [(50, 1, 10), (7, 3, 9), (5, 7, 6), (9, 8, 5), (3, 12, 7), (6, 5, 11)]:
        x, y, start = _small_operands(rng, m, k, n)
        for s in (None, start):
            for at, ld in ((0, None), (1, None), (3, n + 2)):
                fast = G._small(x, y, s, at, ld)
                with monkeypatch.context() as mp:
                    mp.setattr(G, "_PEEL_GROUP", 0)
                    slow = G._small(x, y, s, at, ld)
                assert _same(fast, slow), (m, k, n, at, ld, s is None)
    shapes = [(50, 10, 1), (1, 3, 7), (1, 11, 6), (5, 4, 1), (1, 1, 3)]
    shapes += [(1, 12, 5), (1, 20, 7), (3, 17, 1), (1, 14, 6)]  # (a step of lanes: not taken)
    for m, k, n in shapes * 4:
        x, w, _ = _small_operands(rng, m, k, n)
        w = np.ascontiguousarray(w.T)
        x[0, 0] = -0.0
        fast = G._gemv(x, w)
        with monkeypatch.context() as mp:
            mp.setattr(G, "_GEMV_TAIL_WHOLE", 0)
            slow = G._gemv(x, w)
        assert fast.shape == slow.shape and _same(fast, slow), (m, k, n)


def test_glibc_expf_scalars_give_up_outside_their_range(monkeypatch) -> None:
    # glibc_expf tries Python floats first for up to 16 float32 elements; an element outside
    # [-88, 88] or NaN sends the array to the NumPy path (its clipping and special values)
    assert sleef32._glibc_expf_scalars(np.array([1.0, 88.5], F32)) is None
    assert sleef32._glibc_expf_scalars(np.array([np.nan], F32)) is None
    for x in (np.array([1.0, 90.0, -110.0, np.nan, -0.0], F32), SPECIAL[:16]):
        fast = sleef32.glibc_expf(x)
        with monkeypatch.context() as mp:
            mp.setattr(sleef32, "_GLIBC_SCALARS", -1)
            slow = sleef32.glibc_expf(x)
        assert _same(fast, slow)
