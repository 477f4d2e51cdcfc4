"""gradcli: a gradient explorer. Parse a PyTorch-like program, run it forward and backward on
NumPy, and look at its gradients, vector-Jacobian products, Jacobians and Hessians.

Imports are lazy so that `gradcli --help` and the CLI start quickly.
"""

from __future__ import annotations

from typing import Any

from .base.version import VERSION as __version__  # noqa: F401 - the package's version

_EXPORTS = {
    "Tensor": "core.tensor",
    "no_grad": "core.tensor",
    "GradcliError": "base.errors",
    "parse": "lang.program",
    "Program": "lang.program",
    "run": "analysis.api",
    "forward": "analysis.api",
    "backward": "analysis.api",
    "jacobian": "analysis.jacobian",
    "hessian": "analysis.hessian",
    "hvp": "analysis.hessian",
    "check": "analysis.check",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'gradcli' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"gradcli.{mod}"), name)
