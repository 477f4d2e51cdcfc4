"""`torch.autograd.graph.register_multi_grad_hook(tensors, fn, mode="all"|"any")`.

mode="all": `fn(grads)` once per backward pass, when every tensor of the group that the pass
reaches has its gradient: `grads` is a list in the group's order, None for a tensor the pass
does not reach (a leaf outside `inputs=`, a tensor the output does not depend on).
mode="any": `fn(grad)` once per pass, with the first gradient of the group computed.
Built on the tensors' own gradient hooks (so ordered among them as PyTorch orders them); the
pass is told apart by the engine's pass counter, and what it reaches by the one graph walk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base.errors import GradcliError
from ..core import autograd
from ..core.graph import ancestors
from ..core.tensor import Tensor, typename


class MultiHandle:
    """`torch.autograd.graph._MultiHandle`: `remove()` removes the hook from every tensor."""

    PROGRAM_ATTRIBUTES = ("remove",)

    def __init__(self, handles: list[Any]) -> None:
        self.handles = handles

    def remove(self) -> None:
        for h in self.handles:
            h.remove()

    def program_typename(self) -> str:
        return "_MultiHandle"

    def __repr__(self) -> str:
        return f"<torch.autograd.graph._MultiHandle object at {id(self):#x}>"


def _reached(tensors: list[Tensor]) -> int:
    """How many of `tensors` the pass running gives a gradient (computed once a pass)."""
    current = autograd.CURRENT[0]
    if current is None:
        return len(tensors)
    if autograd.GRAD_CALL[0] == "grad" and any(t.node is None for t in tensors):
        raise (
            GradcliError(
                "A leaf node was passed to _will_engine_execute_node but we are currently running "
                "autograd.grad(). This is currently not supported."
            )
            .mirror("RuntimeError")
            .pytorch()
        )
    roots, capture = current
    nodes = ancestors(list(roots))
    node_set = set(nodes)
    leaves = {id(i) for n in nodes for i in n.inputs}
    leaves.update(id(r) for r in roots if r.node is None)
    wanted = {id(t) for t in capture} if capture else None
    count = 0
    for t in tensors:
        if t.node is not None:
            count += t.node in node_set
        elif id(t) in leaves and (wanted is None or id(t) in wanted):
            count += 1
    return count


def register_multi_grad_hook(tensors: Any, fn: Callable[..., Any], *, mode: Any = "all") -> Any:
    if mode not in ("all", "any"):
        raise GradcliError(f"Expects mode to be one of ('all', 'any') but got {mode}").mirror(
            "ValueError"
        )
    try:
        group = list(tensors)
    except TypeError:
        raise GradcliError(f"'{typename(tensors)}' object is not iterable").mirror(
            "TypeError"
        ) from None
    for t in group:
        if not isinstance(t, Tensor):
            raise GradcliError(
                f"register_multi_grad_hook expects tensors, got {typename(t)}"
            ).mirror("TypeError")
        if not t.requires_grad:
            raise GradcliError("Expected gradient function to be set").mirror("AssertionError")
    state: dict[str, Any] = {"pass": None}

    def start(pid: int) -> None:
        state.update({"pass": pid, "grads": [None] * len(group), "count": 0, "want": None})
        state["fired"] = False

    def hook_for(i: int) -> Callable[[Tensor], None]:
        def hook(g: Tensor) -> None:
            pid = autograd.PASS[1]
            if state["pass"] != pid:
                start(pid)
            if mode == "any":
                if not state["fired"]:
                    state["fired"] = True
                    fn(g)
                return None
            state["grads"][i] = g
            state["count"] += 1
            if state["want"] is None:
                state["want"] = _reached(group)
            if state["count"] == state["want"]:
                fn(list(state["grads"]))
            return None

        return hook

    return MultiHandle([t.register_hook(hook_for(i)) for i, t in enumerate(group)])
