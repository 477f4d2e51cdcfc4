"""`torch.nn.utils.skip_init(module_cls, *args, **kwargs)`: the module made without drawing its
initial values. PyTorch builds it on the meta device (nothing is drawn from the generator) and
then `to_empty()`s it: every parameter and buffer is uninitialised memory. gradcli builds it on
the CPU with the generator's state put back afterwards, then gives each parameter and buffer
the memory of a `torch.empty` (zeros, said when printed before anything is written to it)."""

from __future__ import annotations

from typing import Any

from ..base.errors import GradcliError, NotSupported
from ..surface import nn as surface_nn


def _takes_device(cls: Any) -> bool:
    """Whether PyTorch's constructor of the built-in module class has a `device` parameter."""
    from ..surface.torch_signatures import SIGNATURES

    text = SIGNATURES.get(f"nn.{cls.name}", "")
    return "device=" in text or ", device," in text or "(device" in text


def skip_init(module_cls: Any = None, *args: Any, **kwargs: Any) -> Any:
    from ..surface.constructors import _uninitialised
    from ..surface.sampling import R
    from .classes import ModuleClass
    from .values import ModuleType, PyType

    if isinstance(module_cls, ModuleClass):
        raise NotSupported(
            "torch.nn.utils.skip_init of a program's own module class is not supported by "
            "gradcli (PyTorch builds it on the meta device, which gradcli does not have)",
            hint="construct the module as usual, then overwrite its parameters (nn.init "
            "functions, or p.copy_(...) under torch.no_grad())",
        )
    base = module_cls is surface_nn.Module  # (nn.Module as the program gives it)
    if not base and not isinstance(module_cls, PyType):
        raise GradcliError("issubclass() arg 1 must be a class").mirror("TypeError")
    if not base and (
        not isinstance(module_cls, ModuleType) or module_cls.name in ("Parameter", "Buffer")
    ):
        raise GradcliError(f"Expected a Module; got {module_cls!r}").mirror("RuntimeError")
    if base or not _takes_device(module_cls):
        raise GradcliError("Module must support a 'device' arg to skip initialization").mirror(
            "RuntimeError"
        )
    state = R.get_rng_state()
    try:
        module = module_cls(*args, **kwargs)
    finally:
        R.set_rng_state(state)  # (on the meta device nothing is drawn)
    for m in module.module_list():
        for table in (m._parameters, m._buffers):
            for t in table.values():
                if t is not None and t.data.size:
                    t.data = _uninitialised(t.data.shape, t.data.dtype)
                    t._vc = [0]  # (new memory: nothing written to it yet)
    return module
