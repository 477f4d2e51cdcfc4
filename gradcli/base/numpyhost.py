"""NumPy's and OpenBLAS's own kernels, chosen the same on every x86-64 machine.

gradcli computes with NumPy, and NumPy picks its kernels by the processor it runs on: on a
machine with AVX-512 its float64 `exp`, `expm1`, `log1p`... are other (SVML) code than on an
AVX2 one, whose last bits differ (about 1 result in 500), and OpenBLAS's LAPACK (`svd`, `eigh`,
`solve`) runs other kernels (SkylakeX against Haswell). gradcli's emulations of PyTorch are
measured against NumPy's AVX2 code, so that a program printed other last digits on an AVX-512
machine (a Zen 4 EPYC: 3 of the corpus's float64 programs). Before NumPy is first imported,
an AVX-512 machine's NumPy is therefore told to leave out its AVX-512 code and OpenBLAS to use
its Haswell kernels, both of which such a machine runs; a user's own settings of the two
variables are kept. (A NumPy imported before gradcli keeps its choice.) A program's own NumPy
computations print the host's digits all the same: `lang.hostnumpy` computes those whose bits
depend on these kernels with the host's own.
"""

from __future__ import annotations

import functools
import os
import sys

# NumPy's names of its AVX-512 dispatch targets: 2.4 and later group them as X86_V4; earlier
# versions name each extension
_NEW = "X86_V4 AVX512_ICL AVX512_SPR"
_OLD = "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR"


@functools.cache
def cpuinfo() -> tuple[str, frozenset[str]]:
    """The processor's vendor (``AuthenticAMD``, ``GenuineIntel``) and instruction-set flags
    as Linux's /proc/cpuinfo gives them; ("", empty) where the system does not say."""
    vendor, flags = "", frozenset()
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for _, line in zip(range(64), info):
                if line.startswith("vendor_id"):
                    vendor = line.partition(":")[2].strip()
                elif line.startswith("flags"):
                    flags = frozenset(line.partition(":")[2].split())
                    break
    except OSError:
        pass
    return vendor, flags


def _avx512() -> bool:
    flags = cpuinfo()[1]
    return "avx512f" in flags and "avx2" in flags and "fma" in flags


def _numpy_names() -> str:
    """The names this NumPy knows (read from its version file: importing it is what we
    prepare, and an unknown name makes NumPy warn at import)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("numpy")
        where = spec.submodule_search_locations if spec else None
        if not where:
            return _NEW
        with open(os.path.join(list(where)[0], "version.py"), encoding="utf-8") as f:
            text = f.read(4096)
    except (OSError, ImportError, ValueError):
        return _NEW
    for line in text.splitlines():
        if line.startswith("version"):
            parts = line.split("=", 1)[1].strip().strip("'\"").split(".")
            try:
                newer = (int(parts[0]), int(parts[1])) >= (2, 4)
            except (ValueError, IndexError):
                return _NEW
            return _NEW if newer else _OLD
    return _NEW


# The variables pin() set in this process, each with its value before (None: not set)
_PINNED: dict[str, str | None] = {}


# Names the variables gradcli set, for the processes started from this one (a test runner's
# workers, `gradcli` run from a program's subprocess): they inherit the pin, not the user's
MARK = "GRADCLI_PINNED_NUMPY"


def pin() -> None:
    inherited = os.environ.get(MARK, "").split(",")
    for key, value in (("NPY_DISABLE_CPU_FEATURES", None), ("OPENBLAS_CORETYPE", "Haswell")):
        if key in inherited and os.environ.get(key) == (value or _numpy_names()):
            _PINNED[key] = None  # set by gradcli in the process that started this one
    if "numpy" not in sys.modules and sys.platform.startswith("linux") and _avx512():
        if "NPY_DISABLE_CPU_FEATURES" not in os.environ:
            os.environ["NPY_DISABLE_CPU_FEATURES"] = _numpy_names()
            _PINNED["NPY_DISABLE_CPU_FEATURES"] = None
        if "OPENBLAS_CORETYPE" not in os.environ:
            os.environ["OPENBLAS_CORETYPE"] = "Haswell"
            _PINNED["OPENBLAS_CORETYPE"] = None
    if _PINNED:
        os.environ[MARK] = ",".join(sorted(_PINNED))


def pinned() -> dict[str, str | None]:
    """The variables gradcli set before NumPy's import, with their values before (None: not
    set): a program's own NumPy computations whose bits depend on them are computed with the
    host's kernels under the environment as it was (`lang.hostnumpy`)."""
    return dict(_PINNED)
