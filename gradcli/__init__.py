"""gradcli: a gradient explorer. Parse a PyTorch-like program, run it forward and backward on
NumPy, and look at its gradients, vector-Jacobian products, Jacobians and Hessians.

Imports are lazy so that `gradcli --help` and the CLI start quickly.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "Tensor": "engine",
    "no_grad": "engine",
    "GradcliError": "errors",
    "parse": "interpreter",
    "Program": "interpreter",
    "run": "api",
    "forward": "api",
    "backward": "api",
    "jacobian": "jacobian",
    "hessian": "jacobian",
    "hvp": "jacobian",
    "check": "check",
    "ops": "ops",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'gradcli' has no attribute {name!r}")
    import importlib

    module = importlib.import_module(f"gradcli.{mod}")
    return module if name == mod else getattr(module, name)
