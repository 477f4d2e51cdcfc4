"""MKL's ?dot (`torch.dot` / `Tensor.dot` / `matmul` of two contiguous vectors: ATen calls sdot or
ddot) in NumPy, bit for bit: the order of its fused multiply-adds and additions."""

from __future__ import annotations

import numpy as np

from .fma64 import _fma64
from .powf32 import fma32

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)

# MKL's ?dot (`torch.dot`, `Tensor.dot` of two contiguous vectors: ATen calls sdot / ddot), as
# measured on PyTorch 2.13 (MKL 2024.2, AVX-512, one thread): first the tree of additions, with
# inputs whose partial sums cancel (a * b = +-2**60 at two places, ones elsewhere: the result
# counts the products added after the two met), for 1 to 129 elements; then random vectors of 1
# to 4,097 elements, 60 of each size and dtype, every result equal. W lanes (16 float32, 8
# float64) in 4 registers: the products are fused (fma) into the lanes in consecutive pieces,
# 4 W at a time into all four registers while 4 W or more are left, then 2 W into the first two
# if so many are left, then W into the first, then the rest into the first one's leading
# lanes; the registers are added as (r0 + r1) + (r2 + r3), the lanes by halves (float64 down to
# one; float32 down to four, then (l0 + l1) + (l2 + l3)).
_DOT_LANES = {_F32: 16, _F64: 8}
# Past these sizes the chain of fused multiply-adds (one NumPy step per 4 W elements) would
# cost more than a few tens of milliseconds a product: NumPy's BLAS adds them instead (its
# order differs in the last bits).
DOT_EXACT_MAX = {_F32: 1 << 16, _F64: 1 << 14}


_U64 = np.uint64


def _chain32(a: np.ndarray, b: np.ndarray, pieces: list, acc: np.ndarray) -> None:
    """The float32 lanes' chain of fused multiply-adds through float64, into `acc`: a product
    of two float32 numbers is exact there and the sum is rounded once to float64, then to
    float32, which is the fused result unless the float64 sum lands on a float32 midpoint.
    Two NumPy calls a piece, the sums kept; if one landed on a midpoint (past the first piece,
    whose sums are the exact products), the chain is done again piece by piece, those lanes
    with `fma`."""
    products = a.astype(np.float64) * b.astype(np.float64)
    lanes = np.zeros(acc.size, _F32)
    sums = np.empty(a.size, np.float64)
    for lo, hi in pieces:
        np.add(products[lo:hi], lanes[: hi - lo], out=sums[lo:hi])
        np.copyto(lanes[: hi - lo], sums[lo:hi], casting="same_kind")
    first = pieces[0][1] if pieces else 0
    if ((sums[first:].view(_U64) & _U64(0x1FFFFFFF)) == _U64(0x10000000)).any():
        lanes[:] = 0
        for lo, hi in pieces:
            k = hi - lo
            s = products[lo:hi] + lanes[:k]
            out = s.astype(_F32)
            mid = (s.view(_U64) & _U64(0x1FFFFFFF)) == _U64(0x10000000)
            if mid.any():
                out[mid] = fma32(a[lo:hi][mid], b[lo:hi][mid], lanes[:k][mid])
            lanes[:k] = out
    acc[:] = lanes


def dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """`a.dot(b)` of two vectors of one float dtype, in MKL's order (see above); a 0-d array."""
    dt = np.dtype(a.dtype)
    n = a.size
    if dt == _F32 and b.dtype == _F32 and n <= DOT_EXACT_MAX[dt]:
        from . import cpu

        if cpu.mkl_avx2():
            return _dot32_avx2(a, b)
    if dt == _F64 and b.dtype == _F64:
        from . import cpu

        if cpu.mkl_avx2():
            return _dot64_avx2(a, b)
    lanes = _DOT_LANES.get(dt)
    if lanes is None or b.dtype != dt or n > DOT_EXACT_MAX[dt]:
        return np.asarray(np.dot(a, b))
    width = 4 * lanes
    acc = np.zeros(width, dt)
    pieces = [(i, i + width) for i in range(0, n - n % width, width)]
    i = len(pieces) * width
    for size in (2 * lanes, lanes):
        if n - i >= size:
            pieces.append((i, i + size))
            i += size
    if i < n:
        pieces.append((i, n))
    with np.errstate(all="ignore"):
        if dt == _F32:
            _chain32(a, b, pieces, acc)
        else:
            for j, (lo, hi) in enumerate(pieces):
                k = hi - lo
                if j == 0:  # into zeros: the rounded products (+ 0: no -0, as fma's)
                    acc[:k] = a[lo:hi] * b[lo:hi] + dt.type(0)
                else:
                    acc[:k] = _fma64(a[lo:hi], b[lo:hi], acc[:k])
        v = (acc[:lanes] + acc[lanes : 2 * lanes]) + (acc[2 * lanes : 3 * lanes] + acc[3 * lanes :])
        stop = 4 if dt == _F32 else 1
        while v.size > stop:
            v = v[: v.size // 2] + v[v.size // 2 :]
        if dt == _F32:
            v = np.array([(v[0] + v[1]) + (v[2] + v[3])], dt)
    return np.asarray(v[0])


# MKL's sdot on an AVX2 processor without AVX-512 (PyTorch 2.13 on AMD EPYC Zen 3, one
# thread), measured as above (probes whose partial sums cancel, then random vectors of 1 to
# 139 elements and 255 to 10,000, four of each, every result equal): no fused steps, each
# product rounded and added to one of 16 lanes in four registers of 4: 16 products a step
# while 16 are left, then 8 into the first two registers, then 4 into the first, then each
# of the rest into the first lane, in order; the registers added as ((r0 + r1) + r2) + r3, its
# four lanes as (l0 + l2) + (l1 + l3).
def _dot32_avx2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = a.size
    with np.errstate(all="ignore"):
        p = a * b  # float32: each product rounded
        acc = np.zeros(16, _F32)
        i = 0
        for i in range(0, n - n % 16, 16):
            acc += p[i : i + 16]
        i = n - n % 16
        for size in (8, 4):
            if n - i >= size:
                acc[:size] += p[i : i + size]
                i += size
        for j in range(i, n):
            acc[0] += p[j]
        r = ((acc[0:4] + acc[4:8]) + acc[8:12]) + acc[12:16]
        return np.asarray((r[0] + r[2]) + (r[1] + r[3]))


# MKL's ddot on the same processor, measured likewise (probes whose partial sums cancel, 1 to
# 33 elements; then 300 random vectors of 1 to 500 elements, aligned or one double off: every
# result equal): no fused steps, each product rounded and added to one of 8 lanes: 8 products
# a step while 8 are left, then 2 at a time into lanes 0 and 1, then the last into lane 0;
# the lanes added as (((l0 + l2) + l4) + l6) + (((l1 + l3) + l5) + l7).
def _dot64_avx2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    n = a.size
    with np.errstate(all="ignore"):
        p = a * b
        whole = n - n % 8
        acc = np.add.accumulate(p[:whole].reshape(-1, 8), axis=0)[-1] if whole else np.zeros(8)
        acc = acc.copy()
        i = whole
        while n - i >= 2:
            acc[:2] += p[i : i + 2]
            i += 2
        if i < n:
            acc[0] += p[i]
        s0 = ((acc[0] + acc[2]) + acc[4]) + acc[6]
        s1 = ((acc[1] + acc[3]) + acc[5]) + acc[7]
        return np.asarray(s0 + s1)
