"""gradcli: a gradient explorer. Parse a PyTorch-like program, run it forward and backward on
NumPy, and look at its gradients, vector-Jacobian products, Jacobians and Hessians.

The library (documented in the README's library section; the module paths under `gradcli.`
are internal):

    parse(text) -> Program               Program.run(overrides=...) -> Run
    load(text) -> Run                    run(program) -> Run
    Tensor, grad, no_grad, enable_grad   the autograd of the programs, as torch's
    backward(program or Run, of, wrt, grad) -> BackwardResult;  backward(tensors, grad)
    jacobian(program or Run, of, wrt, method) -> JacobianResult;  jacobian(out, inputs)
    hessian, hvp, check, forward         GradcliError (every error a user can cause)

Imports are lazy so that `gradcli --help` and the CLI start quickly.
"""

from __future__ import annotations

from typing import Any

from .base import numpyhost

numpyhost.pin()  # before anything imports NumPy: the same kernels on every x86-64 machine

_EXPORTS = {
    "GradcliError": "base.errors",
    "Tensor": "core.tensor",
    "no_grad": "core.tensor",
    "enable_grad": "core.tensor",
    "grad": "core.autograd",
    "parse": "lang.program",
    "Program": "lang.program",
    "Run": "lang.program",
    "load": "analysis.api",
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
    if name == "__version__":
        from .base.version import VERSION

        return VERSION
    mod = _EXPORTS.get(name)
    if mod is None:
        raise AttributeError(f"module 'gradcli' has no attribute {name!r}")
    import importlib

    importlib.import_module("gradcli.surface")  # a complete Tensor (its methods, its repr)
    value = getattr(importlib.import_module(f"gradcli.{mod}"), name)
    globals()[name] = value
    return value
