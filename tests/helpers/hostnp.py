"""NumPy as a program's own NumPy calls compute in gradcli: the functions whose bits depend on
the processor's kernels (`gradcli.lang.hostnumpy.NAMES`) with the host's own kernels (where
gradcli pinned this process's: `hostnumpy.compute`), the rest NumPy's here. Tests that compare
a program's NumPy results with NumPy's compute their expectations with it
(`tests/lang/test_hostnumpy.py` checks `compute` against a process without the pin)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from gradcli.lang import hostnumpy


class _HostNumPy:
    def __getattr__(self, name: str) -> Any:
        if name in hostnumpy.NAMES:
            return functools.partial(hostnumpy.compute, name)
        return getattr(np, name)


HOST = _HostNumPy()
