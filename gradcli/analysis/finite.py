"""Where a NaN or an infinity came from: the first operation that made one from finite values.

Forward: the first recorded operation (in creation order) whose result holds a non-finite
value while its inputs are all finite (`log` of 0, `0 / 0`, `exp` of 1000). Backward: the
first operation of the reverse pass that passes on a non-finite gradient when the gradient it
received and its forward values are finite (the backward of `sqrt` at 0 multiplies by inf;
when what it received there is 0, 0 * inf is nan). The classic case gets its explanation:
`torch.where` over `sqrt`/`log`, whose masked branch still poisons the gradient, and the
double-`where` fix.

Each finding says the operation, the element, the values, and the program's line when the run
knows where the operation was recorded (`Run.node_line`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..base.record import Record
from ..core.graph import ancestors
from ..core.op import Node
from ..core.tensor import Tensor

# Operations whose derivative is infinite where their value is finite (at 0).
_STEEP = {"sqrt": "0", "log": "0", "log1p": "-1", "pow_scalar": "0", "div": "0", "norm": "0"}


class Finding(Record):
    """The first non-finite value of a pass and what made it."""

    _fields = ("phase", "op", "node", "result", "index", "detail", "line", "why", "fix")
    _defaults = {"line": None, "why": None, "fix": None}
    phase: str  # "forward" or "backward"
    op: str  # the operation (`log`)
    node: str  # its grad_fn name (`LogBackward0`)
    result: str  # the tensor it computed, by the program's name or `#seq`
    index: str  # the first non-finite element, `[1]` or `[0, 2]` ("" for a scalar)
    detail: str  # the values: `log(0) = -inf`
    line: str | None  # `prog.py:3:5`, when known
    why: str | None
    fix: str | None

    def text(self) -> str:
        """One line, then the explanation and the fix on lines of their own."""
        where = f" at {self.line}" if self.line else ""
        head = "the backward of " if self.phase == "backward" else ""
        what = f", computing {self.result}" if self.result.startswith("`") else ""
        out = f"the first non-finite value: {head}`{self.op}` ({self.node}{what}){where}"
        out += f": {self.detail}"
        if self.index and self.phase == "forward":
            out += f" (element {self.index})"
        if self.why:
            out += f"\n  why: {self.why}"
        if self.fix:
            out += f"\n  fix: {self.fix}"
        return out

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self._fields}


def _finite(a: Any) -> bool:
    a = np.asarray(a)
    return a.dtype.kind not in "fc" or bool(np.isfinite(a).all())


def _index(shape: tuple[int, ...], flat: int) -> str:
    if not shape:
        return ""
    return "[" + ", ".join(str(int(i)) for i in np.unravel_index(flat, shape)) + "]"


def _num(v: Any) -> str:
    v = float(v)
    if v == 0:
        return "0"
    return f"{v:.6g}"


def _first_bad(a: np.ndarray) -> int:
    return int(np.argmin(np.isfinite(np.asarray(a)).reshape(-1)))


def _name(t: Tensor, names: dict[int, str]) -> str:
    n = names.get(id(t))
    if n is not None:
        return f"`{n}`"
    return "an intermediate" if t.node is not None else "a constant"


def _element(t: Tensor, names: dict[int, str], index: str) -> str:
    """`x[0]` for a named tensor, else `an intermediate, at [0]`."""
    n = names.get(id(t))
    if n is not None:
        return f"`{n}{index}`"
    return _name(t, names) + (f" at {index}" if index else "")


def _values_at(node: Node, flat: int) -> list[float] | None:
    """The inputs' values at element `flat` of the output, when they broadcast to it."""
    shape = node.out.shape
    vals = []
    for x in node.inputs:
        try:
            vals.append(float(np.broadcast_to(x.data, shape).reshape(-1)[flat]))
        except (ValueError, TypeError, IndexError):
            return None
    return vals


_SYMBOL = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**"}


def _forward_detail(node: Node, flat: int) -> str:
    out = float(np.asarray(node.out.data).reshape(-1)[flat])
    name = node.op.name
    vals = _values_at(node, flat) if node.op.kind in ("elementwise", "binary") else None
    if vals is not None and len(vals) == 2 and name in _SYMBOL:
        return f"{_num(vals[0])} {_SYMBOL[name]} {_num(vals[1])} = {_num(out)}"
    if vals is not None and len(vals) == 1:
        extra = ""
        if name == "pow_scalar":
            extra = f" ** {_num(node.params.get('p'))}"
            return f"{_num(vals[0])}{extra} = {_num(out)}"
        return f"{name}({_num(vals[0])}) = {_num(out)}"
    return f"{_num(out)} from finite inputs (an overflow?)"


def forward_finding(
    out: Tensor, names: dict[int, str], line: Callable[[Node], str | None] | None = None
) -> Finding | None:
    """The first operation of `out`'s graph that made a non-finite value from finite ones
    (or the leaf that holds one); None when `out`'s graph is finite throughout."""
    nodes = ancestors([out])
    for n in nodes:
        for x in n.inputs:
            if x.node is None and not _finite(x.data):
                flat = _first_bad(x.data)
                return Finding(
                    "forward",
                    "the input",
                    "a leaf" if x.requires_grad else "a constant",
                    _name(x, names),
                    _index(tuple(x.shape), flat),
                    f"it holds {_num(np.asarray(x.data).reshape(-1)[flat])}",
                )
        if not _finite(n.out.data) and all(_finite(x.data) for x in n.inputs):
            flat = _first_bad(n.out.data)
            return Finding(
                "forward",
                n.op.name,
                n.name(),
                _name(n.out, names),
                _index(tuple(n.out.shape), flat),
                _forward_detail(n, flat),
                line(n) if line else None,
            )
    return None


def backward_finding(
    out: Tensor,
    grad_output: np.ndarray,
    names: dict[int, str],
    line: Callable[[Node], str | None] | None = None,
) -> Finding | None:
    """Replays the reverse pass from `out` and returns the first operation that passed on a
    non-finite gradient from a finite one and finite forward values; None if there is none
    (or the non-finite values start in the forward pass: see `forward_finding`)."""
    from ..core.autograd import run_backward

    found: list[Finding] = []
    consumers: dict[int, list[Node]] = {}
    for n in ancestors([out]):
        for x in n.inputs:
            consumers.setdefault(id(x), []).append(n)

    def watch(node: Node, received: Tensor, passed: tuple) -> None:
        if found or not _finite(received.data):
            return
        if not _finite(node.out.data) or not all(_finite(x.data) for x in node.inputs):
            return
        for k, (x, g) in enumerate(zip(node.inputs, passed)):
            if g is None:
                continue
            g = np.asarray(getattr(g, "data", g))
            if _finite(g):
                continue
            found.append(_explain(node, k, x, g, np.asarray(received.data), names, consumers))
            if line is not None:
                found[-1] = found[-1].replace(line=line(node))
            return

    run_backward(
        [out],
        [Tensor(np.array(grad_output, dtype=out.dtype))],
        check_freed=False,
        trace=watch,
    )
    return found[0] if found else None


def _explain(
    node: Node,
    k: int,
    x: Tensor,
    g: np.ndarray,
    received: np.ndarray,
    names: dict[int, str],
    consumers: dict[int, list[Node]],
) -> Finding:
    flat = _first_bad(g)
    name = node.op.name
    xv = np.asarray(x.data)
    try:
        at_x = float(np.broadcast_to(xv, g.shape).reshape(-1)[flat])
    except ValueError:
        at_x = float("nan")
    try:
        got = float(np.broadcast_to(received, g.shape).reshape(-1)[flat])
    except ValueError:
        got = float("nan")
    bad = float(g.reshape(-1)[flat])
    detail = (
        f"where its input {_element(x, names, _index(tuple(g.shape), flat))} is {_num(at_x)}, "
        f"it received the gradient {_num(got)} and passed on {_num(bad)}"
    )
    why = fix = None
    if name in _STEEP:
        detail += f" (the derivative of `{name}` is infinite there"
        detail += f": {_num(got)} * inf = {_num(bad)})" if got == 0 else ")"
    masked = [c for c in consumers.get(id(node.out), ()) if c.op.name == "where"]
    if masked and got == 0 and name in _STEEP:
        why = (
            f"`torch.where` passes a zero gradient to the branch it did not choose, but that "
            f"branch was still computed and is still differentiated: the backward of `{name}` "
            f"multiplies that zero by its infinite derivative, and 0 * inf is nan"
        )
        arg = _name(x, names).strip("`")
        safe = "1.0" if name != "log1p" else "0.0"
        fix = (
            f"keep the bad values out of `{name}` itself, with a second where: "
            f"torch.where(cond, torch.{name}(torch.where(cond, {arg}, {safe})), other)"
        )
    return Finding(
        "backward",
        name,
        node.name(),
        _name(node.out, names),
        _index(tuple(g.shape), flat),
        detail,
        None,
        why,
        fix,
    )


def findings(
    out: Tensor,
    grad_output: np.ndarray | None,
    names: dict[int, str],
    values: Sequence[np.ndarray],
    line: Callable[[Node], str | None] | None = None,
) -> list[Finding]:
    """What made the non-finite values among `values` (results computed from `out`): the
    forward finding if `out`'s graph is not finite, else the backward one."""
    if all(_finite(v) for v in values) and _finite(out.data):
        return []
    f = forward_finding(out, names, line)
    if f is not None:
        return [f]
    if grad_output is None:
        return []
    b = backward_finding(out, grad_output, names, line)
    return [b] if b is not None else []
