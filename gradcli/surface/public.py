"""Whether PyTorch 2.13 (or another module a program may import) has a name at all, from the
recorded table (`torch_public`, read when first asked: only an error path asks). A name gradcli
lacks is then refused as not supported when PyTorch has it (`x.pin_memory()`), and is Python's
own AttributeError when it exists nowhere (`torch.autograd.jacobian`, `x.summ()`), which a
program can catch as it would under PyTorch."""

from __future__ import annotations

from functools import cache


@cache
def _names(module: str) -> frozenset[str] | None:
    from .torch_public import NAMES

    names = NAMES.get(module)
    return None if names is None else frozenset(names.split())


def has(module: str, name: str) -> bool | None:
    """True/False: `module` (`torch.autograd`, `Tensor`...) has `name` in PyTorch 2.13 (or in
    the recorded module); None: the module was not recorded (nothing is known)."""
    names = _names(module)
    return None if names is None else name in names


def star_names(module: str) -> tuple[str, ...] | None:
    """What `from module import *` binds in PyTorch 2.13: the module's `__all__`; None when
    the module has none (Python would then bind every public name, the modules and helpers it
    imported among them: `from torch.nn.functional import *` rebinds `grad` to the module
    torch.nn.grad) or was not recorded."""
    from .torch_public import STAR

    listed = STAR.get(module)
    return None if listed is None else tuple(listed.split())
