"""`torch.utils.module_tracker.ModuleTracker`: which modules are running, by their dotted names
(`tracker.parents`, always with "Global"), in forward and in backward (`tracker.is_bw`), as
PyTorch's tracker follows them: global forward pre-hooks and hooks add and remove a module's
name; in backward, a multi-grad hook on a module's outputs adds it back and one on its inputs
removes it, and the end of the pass resets the set to {"Global"}."""

from __future__ import annotations

import weakref
from typing import Any

from ..core import autograd
from ..core.tensor import Tensor
from .multihook import register_multi_grad_hook
from .nn import GLOBAL_HOOKS, Module


def _tensors(value: Any, depth: int = 0) -> list[Tensor]:
    """The tensors of a module's inputs or outputs that require grad (tuples, lists and
    dicts flattened, as PyTorch's tree_flatten)."""
    if isinstance(value, Tensor):
        return [value] if value.requires_grad else []
    found: list[Tensor] = []
    if depth < 8 and isinstance(value, (tuple, list)):
        for v in value:
            found.extend(_tensors(v, depth + 1))
    elif depth < 8 and isinstance(value, dict):
        for v in value.values():
            found.extend(_tensors(v, depth + 1))
    return found


class ModuleTracker:
    """PyTorch's ModuleTracker (a context manager); see the module's docstring."""

    program_context = True
    PROGRAM_ATTRIBUTES = ("parents", "is_bw")

    def __init__(self) -> None:
        self.parents: set[str] = {"Global"}
        self._known: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._seen: weakref.WeakSet = weakref.WeakSet()
        self._has_callback = False
        self._handles: list[Any] = []
        self._entries: list[tuple[str, list]] = []

    @property
    def as_value(self) -> ModuleTracker:
        return self

    @property
    def is_bw(self) -> bool:
        return autograd.CURRENT[0] is not None

    def _name(self, mod: Module) -> str:
        if mod not in self._known:
            self._known[mod] = type(mod).__name__ if not hasattr(mod, "name") else mod.name
        name = self._known[mod]
        if mod not in self._seen:
            for child_name, child in mod.named_children():
                self._known[child] = f"{name}.{child_name}"
                self._name(child)
            self._seen.add(mod)
        return name

    def _end_of_pass(self) -> None:
        self.parents = {"Global"}
        self._has_callback = False

    def _append(self, name: str, is_bw: bool) -> Any:
        def fn(*args: Any) -> None:
            if is_bw and not self._has_callback:
                autograd.END_OF_PASS.append(self._end_of_pass)
                self._has_callback = True
            self.parents.add(name)

        return fn

    def _pop(self, name: str) -> Any:
        def fn(*args: Any) -> None:
            self.parents.discard(name)

        return fn

    def _pre_hook(self, mod: Module, inputs: Any) -> None:
        name = self._name(mod)
        self._append(name, False)()
        tensors = _tensors(inputs)
        if tensors:
            self._handles.append(register_multi_grad_hook(tensors, self._pop(name)))

    def _post_hook(self, mod: Module, inputs: Any, output: Any) -> None:
        name = self._name(mod)
        self._pop(name)()
        tensors = _tensors(output)
        if tensors:
            self._handles.append(register_multi_grad_hook(tensors, self._append(name, True)))

    def enter(self) -> None:
        for kind, hook in (("forward_pre", self._pre_hook), ("forward", self._post_hook)):
            entry = [hook]
            GLOBAL_HOOKS[kind].append(entry)
            self._entries.append((kind, entry))

    def exit(self) -> None:
        for kind, entry in self._entries:
            table = GLOBAL_HOOKS[kind]
            for i, e in enumerate(table):
                if e is entry:
                    del table[i]
                    break
        self._entries.clear()
        for handle in self._handles:
            handle.remove()
        self._handles.clear()

    def __repr__(self) -> str:
        return f"<torch.utils.module_tracker.ModuleTracker object at {id(self):#x}>"
