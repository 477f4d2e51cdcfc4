"""What the recorded PyTorch bits assume of the machine the tests run on.

PyTorch's outputs in tests/ were recorded on x86-64 machines with AVX-512 (PyTorch's own
bits differ on others: its MKL and SLEEF kernels are chosen by the CPU). gradcli reproduces
them in NumPy, machine-independently, except where it hands a product to NumPy's own BLAS
(complex matrices, float32 products past the emulated sizes or layouts): OpenBLAS picks its
kernels by CPU too, and its AVX-512 kernels add in the order the recordings show, its AVX2
ones in another. Tests of those few results run where NumPy's BLAS is an AVX-512 one.
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os

import numpy as np

# OpenBLAS's names for its kernels that use AVX-512 (a CPU with AVX-512 gets one of them)
_AVX512_CORES = {"skylakex", "cooperlake", "sapphirerapids", "zen4", "zen5"}


@functools.cache
def blas_core() -> str | None:
    """The name of the kernels NumPy's OpenBLAS chose on this machine, or None if unknown."""
    libs = glob.glob(os.path.join(os.path.dirname(np.__file__) + ".libs", "*openblas*.so*"))
    for path in libs:
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for name in (
            "scipy_openblas_get_corename64_",
            "openblas_get_corename64_",
            "openblas_get_corename",
        ):
            fn = getattr(lib, name, None)
            if fn is not None:
                fn.restype = ctypes.c_char_p
                return fn().decode().lower()
    return None


def _cpu_has_avx512() -> bool | None:
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return " avx512f" in line
    except OSError:
        return None
    return None


@functools.cache
def blas_as_recorded() -> bool:
    """Whether NumPy's BLAS here is an AVX-512 one, as on the machines the data was recorded
    on (unknown: assumed so)."""
    core = blas_core()
    if core is not None:
        return core in _AVX512_CORES
    cpu = _cpu_has_avx512()
    return True if cpu is None else cpu


BLAS_REASON = (
    "PyTorch's bits recorded on AVX-512; gradcli leaves this product to NumPy's BLAS, whose "
    f"kernels here ({blas_core()}) add in another order"
)
