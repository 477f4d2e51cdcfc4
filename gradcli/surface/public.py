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
    if names is None:
        entry = submodule(module)
        names = None if entry is None else entry[1]
    return None if names is None else frozenset(names.split())


def submodule(dotted: str) -> tuple[dict[str, str], str] | None:
    """A public submodule of torch.autograd/distributions/nn/optim/utils.data as PyTorch 2.13
    has it (`torch.distributions.one_hot_categorical`): the names it shares with a package
    above it, by that package (nearest first), and every public name it has; None: not one."""
    from .torch_submodules import SUBMODULES

    return SUBMODULES.get(dotted)


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


def missing_module(dotted: str) -> str | None:
    """Python's ModuleNotFoundError message when PyTorch 2.13 has no module `dotted` (it names
    the first part missing: `torch.nn.utils._stateless`); None when every part exists (or the
    name is not torch's)."""
    from .torch_modules import CHILDREN

    parts = dotted.split(".")
    if parts[0] != "torch":
        return None
    for i in range(1, len(parts)):
        parent = ".".join(parts[:i])
        if parent not in CHILDREN:  # a module file, not a package
            return f"No module named '{dotted}'; '{parent}' is not a package"
        if parts[i] not in CHILDREN[parent].split():
            return f"No module named '{'.'.join(parts[: i + 1])}'"
    return None
