"""Which processor's kernels gradcli's float32 emulations follow.

PyTorch's CPU build does not compute the same float32 bits everywhere: MKL's vector math and
matrix kernels, SLEEF and oneDNN choose their code by the instruction sets of the processor
they run on, so the same PyTorch prints other last digits on another machine. gradcli
emulates those kernels in NumPy (the same bits on any machine) for one family of processors
at a time, and by default the family of the machine it runs on, so that it prints what
PyTorch prints there:

- ``avx512``: x86-64 processors with AVX-512 (Intel Xeon Skylake-SP and later...): the kernels
  the project's recorded outputs come from;
- ``avx2``: x86-64 processors with AVX2 and no AVX-512, as measured on AMD EPYC (Zen 3); also
  AMD processors with AVX-512 (Zen 4): MKL runs its AVX2 code there (it takes its AVX-512 paths
  on Intel processors only), and MKL's products and vector math are most of what differs (on a
  Zen 4 EPYC, 211 of 234 corpus programs print this family's text, 116 the ``avx512`` one's;
  ATen's own 16-lane loops, softmax and oneDNN's convolutions there are the AVX-512 ones).

Other machines (ARM, older x86) get the ``avx512`` family: their PyTorch is not emulated.
``GRADCLI_KERNELS=avx512`` (or ``avx2``) in the environment picks a family whatever the
machine: the tests pin the recorded family with it.
"""

from __future__ import annotations

import functools
import os

FAMILIES = ("avx512", "avx2")
ENV = "GRADCLI_KERNELS"
_KEY = ENV.encode()
_DATA = getattr(os.environ, "_data", None) if os.name == "posix" else None
if not isinstance(_DATA, dict):
    _DATA = None


def choose(features: dict, vendor: str) -> str:
    """The family for a processor with NumPy's feature table `features` and `vendor`."""
    if features.get("AVX512F"):
        # MKL's AVX-512 kernels run on Intel's processors only: AMD's run its AVX2 ones
        return "avx2" if vendor == "AuthenticAMD" and features.get("AVX2") else "avx512"
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
        hint=f"set {ENV}=avx512 or {ENV}=avx2, or unset it to follow this machine ({_detected()})",
    )


def avx2() -> bool:
    """Whether the emulations follow PyTorch on an AVX2 processor without AVX-512."""
    return family() == "avx2"
