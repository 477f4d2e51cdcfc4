"""A module imported when first used (`lazy_module`): what start-up does not pay for.

An op family that most programs never reach (convolutions, batch norm, grid sampling, the CTC
loss, the special functions...) is bound where it is used as `Cv = lazy_module(...)` instead
of `from ..ops import conv as Cv`: the name is there at once, the module's code runs at the
first attribute read, and from then on it is the ordinary module in `sys.modules` (the
standard library's `importlib.util.LazyLoader`: no copy that a test's monkeypatch could miss).
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module `name` (absolute), executed at its first attribute read; the module itself
    when something imported it already."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:  # a gradcli bug: the names are ours
        raise ImportError(f"lazy_module: no module named {name!r}")
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    parent, _, child = name.rpartition(".")
    if parent:
        setattr(sys.modules[parent], child, module)
    return module
