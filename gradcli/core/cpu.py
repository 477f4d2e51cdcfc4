"""Which processor's kernels gradcli's float32 emulations follow.

PyTorch's CPU build does not compute the same float32 bits everywhere: MKL's vector math and
matrix kernels, SLEEF and oneDNN choose their code by the instruction sets of the processor
they run on, so the same PyTorch prints other last digits on another machine. gradcli
emulates those kernels in NumPy (the same bits on any machine) for one family of processors
at a time, and by default the family of the machine it runs on, so that it prints what
PyTorch prints there:

- ``avx512``: x86-64 processors with AVX-512 (Intel Xeon Skylake-SP and later...): the kernels
  the project's recorded outputs come from;
- ``avx2``: x86-64 processors with AVX2 and no AVX-512, as measured on AMD EPYC (Zen 3);
- ``zen4``: AMD processors with AVX-512 (Zen 4), as measured on AMD EPYC (family 25 model 17).
  MKL takes its AVX-512 paths on Intel processors only: there its products, vector math and
  LAPACK run the code they run on Zen 3 (the ``avx2`` models), while ATen's own 16-lane
  loops, SLEEF and oneDNN run their AVX-512 code (the ``avx512`` models). On a Zen 4 EPYC,
  of 294 corpus programs run there under PyTorch 2.13, 161 print the ``avx512`` family's text,
  269 the ``avx2`` one's, and all 294 print gradcli's under ``zen4``.

Each emulation point asks the predicate of the library that computes it on the real machine:
`mkl_avx2()` for MKL's kernels (true on ``avx2`` and ``zen4``), `avx2()` for ATen's
Vectorized loops, SLEEF and oneDNN (8 lanes: true on ``avx2`` only); `amd()` where the
avx2 family's model of an ATen kernel was measured to hold on Zen 4 too (prod, pdist, cdist,
atan2, and addr's loop through `vecloop.split_loop(..., avx2_only=True)`: kernels ATen builds
for AVX2 only, which run that code on an AVX-512 processor as well, or whose vector width
does not change the bits).

Other machines (ARM, older x86) get the ``avx512`` family: their PyTorch is not emulated.
``GRADCLI_KERNELS=avx512`` (or ``avx2``, ``zen4``) in the environment picks a family whatever the
machine: the tests pin the recorded family with it.
"""

from __future__ import annotations

import functools
import os

FAMILIES = ("avx512", "avx2", "zen4")
ENV = "GRADCLI_KERNELS"
_KEY = ENV.encode()
_DATA = getattr(os.environ, "_data", None) if os.name == "posix" else None
if not isinstance(_DATA, dict):
    _DATA = None


def choose(features: dict, vendor: str) -> str:
    """The family for a processor with NumPy's feature table `features` and `vendor`."""
    if features.get("AVX512F"):
        # MKL's AVX-512 kernels run on Intel's processors only: AMD's run its AVX2 ones
        return "zen4" if vendor == "AuthenticAMD" and features.get("AVX2") else "avx512"
    if features.get("AVX2") and features.get("FMA3"):
        return "avx2"
    return "avx512"


@functools.cache
def _detected() -> str:
    from ..base.numpyhost import cpuinfo

    vendor, flags = cpuinfo()
    if flags:  # (NumPy's own table below may have AVX-512 switched off: gradcli/base/numpyhost.py)
        features = {"AVX512F": "avx512f" in flags, "AVX2": "avx2" in flags, "FMA3": "fma" in flags}
        return choose(features, vendor)
    try:
        # NumPy's own run-time dispatch has read the processor's features already
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:  # (a NumPy without the table: assume the recorded family)
        return "avx512"
    return choose(features, vendor)


def family() -> str:
    """The processor family whose PyTorch kernels the emulations follow now (read on every
    call: tests and users may change the environment)."""
    # (through the environment's own bytes dict where there is one, as `limits.Limit.read`:
    # os.environ.get encodes and decodes on each call, and the kernels ask on every product)
    data = _DATA if _DATA is not None and os.environ._data is _DATA else None  # type: ignore[attr-defined]
    if data is not None:
        raw = data.get(_KEY)
        if not raw:
            return _detected()
        chosen = raw.decode(errors="replace")
    else:
        chosen = os.environ.get(ENV)
    if chosen is None or chosen == "":
        return _detected()
    if chosen in FAMILIES:
        return chosen
    # a family the user meant to pick is never replaced by the machine's in silence
    from ..base.errors import UsageError

    raise UsageError(
        f"the environment variable {ENV} names no kernel family",
        found=repr(chosen[:40]),
        expected=" or ".join(FAMILIES),
        hint=f"set {ENV}=avx512, avx2 or zen4, or unset it to follow this machine ({_detected()})",
    )


def avx2() -> bool:
    """Whether ATen's Vectorized loops, SLEEF and oneDNN run their AVX2 code (8 float lanes):
    a processor without AVX-512 (the ``avx2`` family)."""
    return family() == "avx2"


def mkl_avx2() -> bool:
    """Whether MKL (sgemm, sgemv, sdot, dgemm..., the vector math, LAPACK) runs its AVX2 /
    generic code: an AMD processor, with AVX-512 or not (the ``avx2`` and ``zen4`` families)."""
    return family() != "avx512"


def amd() -> bool:
    """Whether the emulations follow an AMD processor (the ``avx2`` and ``zen4`` families): for
    the ATen kernels whose avx2-family model was measured to hold on Zen 4 as well (kernels
    without an AVX-512 build run their AVX2 code on every processor; the ``avx512`` family
    keeps the models its outputs were recorded with)."""
    return family() != "avx512"


@functools.cache
def physical_cores(path: str = "/proc/cpuinfo") -> int:
    """The machine's physical cores, as PyTorch counts them for the size of its inter-op
    thread pool (`torch.get_num_interop_threads()` before a program sets it): the distinct
    (physical id, core id) pairs of Linux's /proc/cpuinfo, else Python's count of CPUs."""
    cores: set[tuple[str | None, str]] = set()
    try:
        with open(path, encoding="ascii", errors="replace") as info:
            package: str | None = None
            for line in info:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "processor":
                    package = None
                elif key == "physical id":
                    package = value.strip()
                elif key == "core id":
                    cores.add((package, value.strip()))
    except OSError:
        pass
    logical = os.cpu_count() or 1
    return len(cores) if 0 < len(cores) <= logical else logical
