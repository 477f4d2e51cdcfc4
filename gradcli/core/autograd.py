"""The autograd engine: tensors on NumPy, a recorded graph, and reverse mode.

Every differentiable result records one `Node` (an equation `out = op(inputs, params)`), and
every node gets a sequence number when it is created, so the recorded program is a list of
single-assignment equations in creation order. Backward collects the nodes an output depends on
(iteratively, never recursively), walks them in reverse creation order, and keeps the gradients
of one pass in a dict of its own. VJP rules are written with the engine's own operations, so
with `create_graph=True` the gradient is itself recorded and can be differentiated again; with
it off, rules run with recording switched off. Rules also accept an upstream gradient with
leading batch axes (`nb` of them), which is how one pass computes many VJPs at once.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError

_seq = itertools.count()


class _GradMode:
    enabled = True
    in_pass = False  # inside run_backward's loop (which sets NumPy's errstate once)


class no_grad:  # noqa: N801 - named like torch.no_grad
    """Context manager: operations inside record no graph."""

    def __enter__(self) -> None:
        self.prev = _GradMode.enabled
        _GradMode.enabled = False

    def __exit__(self, *exc: object) -> None:
        _GradMode.enabled = self.prev


class _in_pass:  # noqa: N801
    """Marks run_backward's loop, so `apply` can skip its own per-op errstate."""

    def __enter__(self) -> None:
        self.prev = _GradMode.in_pass
        _GradMode.in_pass = True

    def __exit__(self, *exc: object) -> None:
        _GradMode.in_pass = self.prev


class enable_grad(no_grad):  # noqa: N801
    def __enter__(self) -> None:
        self.prev = _GradMode.enabled
        _GradMode.enabled = True


@dataclass(frozen=True)
class Sample:
    """One test call of an op, `apply(op, *inputs, **params)`, with random inputs.

    shapes    one shape per tensor input: ((2, 3), (3,)) broadcasts, () is a scalar
    params    the keyword params exactly as `apply` receives them (as `functional` passes
              them: non-negative int dims, float p, NumPy arrays for targets / weights)
    low, high random float64 inputs are drawn uniformly from [low, high)
    avoid     points every random input value stays at least `gap` away from (kinks: 0 for
              relu / abs, the bounds of clamp)
    distinct  all random values of the call (over all inputs) are at least `gap` apart: no
              ties for max / maximum / norm(inf)
    gap       the margin of `avoid` and `distinct`
    fixed     {input position: array}: inputs given as they are, never random and never
              differentiated (where's condition)
    hessian   whether the tests also check second derivatives on this call

    E.g. `Sample(((2, 3), (3,)))`, `Sample(((3, 4),), {"dim": 1, "keepdim": True})`,
    `Sample(((2, 3),), low=0.1, high=3.0)` (a positive domain, for log).
    """

    shapes: tuple[tuple[int, ...], ...]
    params: dict[str, Any] = field(default_factory=dict)
    low: float = -2.0
    high: float = 2.0
    avoid: tuple[float, ...] = ()
    distinct: bool = False
    gap: float = 0.05
    fixed: dict[int, Any] = field(default_factory=dict)
    hessian: bool = True


@dataclass(frozen=True)
class Op:
    """One operation: everything about it in one record.

    forward(*arrays, **params) -> array      the value, on NumPy arrays
    vjp(g, out, *inputs, **params) -> tuple  one gradient (Tensor or None) per input; `g` may
                                             carry leading batch axes; the engine reduces each
                                             result to its input's shape (one `unbroadcast`)
    jvp(dots, out, *inputs, **params)        forward mode: the tangent of `out` (optional)
    sym(sympy, *args, **params)              the sympy form, elementwise ops (optional)
    samples: tuple[Sample, ...]              calls the tests run the op on (tests/test_ops.py):
                                             forward, finite differences, batched VJPs, second
                                             order and PyTorch; every op must have some
    """

    name: str
    forward: Callable[..., np.ndarray]
    vjp: Callable[..., tuple]
    torch_name: str
    formula: str
    kind: str = "elementwise"
    signature: str = ""
    kink: str | None = None
    sym: Callable[..., Any] | None = None
    jvp: Callable[..., Any] | None = None
    # Whether backward needs values saved in the forward pass: such nodes are "freed" by a
    # backward without retain_graph, and a second backward through them fails as in PyTorch.
    saves: bool = True
    domain: Callable[..., str | None] | None = None
    nondiff: tuple[int, ...] = field(default=())
    samples: tuple[Sample, ...] = ()


class Node:
    """One recorded equation: `out = op(*inputs, **params)`."""

    __slots__ = ("op", "inputs", "params", "out", "seq", "freed", "label")

    def __init__(self, op: Op, inputs: tuple, params: dict, out: Tensor, label: str | None):
        self.op = op
        self.inputs = inputs
        self.params = params
        self.out = out
        self.seq = next(_seq)
        self.freed = False
        self.label = label

    def name(self) -> str:
        return self.label or self.op.torch_name


class Tensor:
    """A NumPy array with autograd bookkeeping, mirroring `torch.Tensor`'s semantics."""

    __slots__ = ("data", "requires_grad", "grad", "node", "retains_grad", "name", "__weakref__")
    __array_priority__ = 1000  # so `ndarray * Tensor` defers to Tensor.__rmul__

    def __init__(self, data: Any, requires_grad: bool = False, dtype: Any = None) -> None:
        arr = np.asarray(data, dtype=dtype)
        if requires_grad and arr.dtype.kind != "f":
            raise GradcliError(
                "only Tensors of floating point dtype can require gradients",
                hint="gradcli tensors made from numbers are float64; this one holds "
                f"{arr.dtype} values",
            )
        self.data = arr
        if arr.nbytes >= limits.RunBudget.BIG:
            limits.BUDGET.allocated(arr.nbytes)
        self.requires_grad = bool(requires_grad)
        self.grad: Tensor | None = None
        self.node: Node | None = None
        self.retains_grad = False
        self.name: str | None = None

    # --- plain properties -------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self.data.shape

    @property
    def ndim(self) -> int:
        return self.data.ndim

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    @property
    def is_leaf(self) -> bool:
        return self.node is None

    @property
    def grad_fn(self) -> Node | None:
        return self.node

    def numel(self) -> int:
        return int(self.data.size)

    def item(self) -> float:
        if self.data.size != 1:
            raise GradcliError(
                f"a Tensor with {self.data.size} elements cannot be converted to Scalar"
            )
        return self.data.reshape(()).item()

    def detach(self) -> Tensor:
        return Tensor(self.data)

    def numpy(self) -> np.ndarray:
        return self.data

    def retain_grad(self) -> None:
        if not self.requires_grad:
            raise GradcliError("can't retain_grad on Tensor that has requires_grad=False")
        if self.node is not None:
            self.retains_grad = True

    def requires_grad_(self, flag: bool = True) -> Tensor:
        if self.node is not None and not flag:
            raise GradcliError(
                "you can only change requires_grad flags of leaf variables.",
                hint="use .detach() to get a tensor that does not require grad",
            )
        if flag and self.data.dtype.kind != "f":
            raise GradcliError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = bool(flag)
        return self

    def backward(
        self,
        gradient: Any = None,
        retain_graph: bool | None = None,
        create_graph: bool = False,
        inputs: Sequence[Tensor] | None = None,
    ) -> None:
        """Accumulate d(self)/d(leaf), weighted by `gradient`, into each leaf's `.grad`."""
        backward(
            [self], [gradient], retain_graph=retain_graph, create_graph=create_graph, inputs=inputs
        )

    def __repr__(self) -> str:
        from ..surface.printing import tensor_repr

        return tensor_repr(self)

    def __len__(self) -> int:
        if self.ndim == 0:
            raise GradcliError("len() of a 0-d tensor")
        return self.shape[0]

    def __bool__(self) -> bool:
        if self.data.size != 1:
            raise GradcliError(
                f"Boolean value of Tensor with more than one value is ambiguous "
                f"(it has {self.data.size})"
            )
        return bool(self.data.reshape(()))

    # Operators, methods and functions are installed by `gradcli.ops`.


def as_tensor(value: Any, like: Tensor | None = None) -> Tensor:
    """A Tensor for an operand: Tensors pass through, numbers take `like`'s float dtype."""
    if isinstance(value, Tensor):
        return value
    if like is not None and like.dtype.kind == "f" and isinstance(value, (int, float, bool)):
        return Tensor(np.asarray(value, dtype=like.dtype))
    try:
        arr = np.asarray(value)
    except (ValueError, TypeError, OverflowError):
        arr = np.asarray(None)  # a ragged list: refused below
    if arr.dtype.kind not in "biuf":
        rect = " (a list must be rectangular and hold numbers)"
        raise GradcliError(
            f"expected a Tensor or a number, not {type(value).__name__}"
            + (rect if isinstance(value, (list, tuple)) else "")
        )
    if arr.dtype.kind in "iub" and not isinstance(value, np.ndarray):
        arr = arr.astype(np.float64)
    return Tensor(arr)


def apply(op: Op, *inputs: Tensor, label: str | None = None, **params: Any) -> Tensor:
    """Run `op` forward and, when grad mode is on and an input requires grad, record it."""
    limits.BUDGET.tick()
    arrays = [t.data for t in inputs]
    try:
        if _GradMode.in_pass:  # run_backward already holds an errstate for the whole pass
            data = op.forward(*arrays, **params)
        else:
            with np.errstate(all="ignore"):
                data = op.forward(*arrays, **params)
    except GradcliError:
        raise
    except (ValueError, IndexError, TypeError, OverflowError) as e:
        err = GradcliError(f"{op.name}: {e}")
        err.cause = e  # for --debug
        raise err from e
    data = np.asarray(data)
    if data.size > limits.TENSOR_ELEMENTS.value:
        limits.TENSOR_ELEMENTS.check(data.size, f"the result of {op.name}")
    out = Tensor(data)
    if _GradMode.enabled:
        for i, t in enumerate(inputs):
            if t.requires_grad and i not in op.nondiff:
                limits.BUDGET.node()
                out.requires_grad = True
                out.node = Node(op, inputs, params, out, label)
                break
    return out


# --- backward ------------------------------------------------------------------------------

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


def unbroadcast(g: Tensor, shape: tuple[int, ...], nb: int) -> Tensor:
    """Sum `g` (with `nb` leading batch axes) down to `nb` batch axes + `shape`.

    The one place where broadcasting is undone: every rule returns gradients in the broadcast
    shape and the engine reduces them here.
    """
    if g.shape[nb:] == tuple(shape):
        return g
    lead = g.ndim - nb - len(shape)
    axes = list(range(nb, nb + lead))
    for i, s in enumerate(shape):
        if s == 1 and g.shape[nb + lead + i] != 1:
            axes.append(nb + lead + i)
    if axes:
        g = g.sum(dim=tuple(axes), keepdim=True)
    return g.reshape(g.shape[:nb] + tuple(shape))


def _check_gradient(out: Tensor, grad: Any, index: int) -> Tensor:
    if grad is None:
        if out.data.size != 1:
            raise GradcliError(
                "grad can be implicitly created only for scalar outputs",
                hint="pass gradient= with the output's shape "
                f"{list(out.shape)}, e.g. torch.ones_like(out), or reduce the output "
                "with .sum() first",
            )
        return Tensor(np.ones(out.shape, dtype=out.dtype))
    g = as_tensor(grad, like=out)
    if g.shape != out.shape:
        if g.numel() == out.numel() and g.ndim <= 1 and out.numel() == 1:
            # PyTorch accepts a one-element gradient for a one-element output.
            return Tensor(g.data.reshape(out.shape).astype(out.dtype))
        raise GradcliError(
            f"Mismatch in shape: grad_output[{index}] has a shape of "
            f"torch.Size({list(g.shape)}) and output[{index}] has a shape of "
            f"torch.Size({list(out.shape)}).",
            hint="the gradient must have exactly the output's shape",
        )
    if g.dtype != out.dtype and g.dtype.kind == "f" and out.dtype.kind == "f":
        g = Tensor(g.data.astype(out.dtype))
    return g


def run_backward(
    roots: Sequence[Tensor],
    root_grads: Sequence[Tensor],
    *,
    nb: int = 0,
    create_graph: bool = False,
    retain_graph: bool = True,
    capture: Sequence[Tensor] = (),
    check_freed: bool = True,
    trace: Callable[[Node, Tensor, tuple], None] | None = None,
) -> dict[int, tuple[Tensor, Tensor]]:
    """One reverse pass. Returns the pass's gradients, `id(tensor) -> (tensor, gradient)`, for
    every leaf reached and for every tensor in `capture` (which may be intermediates).

    `root_grads[i]` has shape `nb batch axes + roots[i].shape`.
    """
    grads: dict[int, Tensor] = {}
    objs: dict[int, Tensor] = {}
    for r, g in zip(roots, root_grads):
        k = id(r)
        objs[k] = r
        grads[k] = grads[k] + g if k in grads else g

    # Collect the nodes reachable from the roots, iteratively.
    nodes: dict[int, Node] = {}
    stack = [r.node for r in roots if r.node is not None]
    while stack:
        n = stack.pop()
        if n.seq in nodes:
            continue
        nodes[n.seq] = n
        for t in n.inputs:
            if t.node is not None and t.requires_grad and t.node.seq not in nodes:
                stack.append(t.node)

    captured: dict[int, Tensor] = {}
    capture_ids = {id(t): t for t in capture}
    retained: list[tuple[Tensor, Tensor]] = []
    mode = enable_grad() if create_graph else no_grad()
    # One errstate for the whole pass (not one per node): 0/0 at kinks is handled by the rules.
    with mode, np.errstate(all="ignore"), _in_pass():
        for seq in sorted(nodes, reverse=True):
            limits.BUDGET.tick()
            n = nodes[seq]
            key = id(n.out)
            g = grads.pop(key, None)
            if g is None:
                continue
            if key in capture_ids:
                captured[key] = g
            if n.out.retains_grad and nb == 0:
                retained.append((n.out, g))
            if n.freed and check_freed:
                raise GradcliError(
                    SECOND_BACKWARD,
                    hint="pass retain_graph=True to the "
                    "first backward() that goes through this graph",
                )
            gs = n.op.vjp(g, n.out, *n.inputs, **n.params)
            if trace is not None:
                trace(n, g, gs)
            for t, gi in zip(n.inputs, gs):
                if gi is None or not t.requires_grad:
                    continue
                gi = unbroadcast(as_tensor(gi, like=t), t.shape, nb)
                k = id(t)
                objs[k] = t
                grads[k] = grads[k] + gi if k in grads else gi
            if not retain_graph and n.op.saves:
                n.freed = True
    for t_id in capture_ids:
        if t_id in grads and t_id not in captured:
            captured[t_id] = grads[t_id]
    for t, g in retained:
        t.grad = g if t.grad is None else t.grad + g
    grads.update(captured)
    return {k: (objs[k], g) for k, g in grads.items()}


def _roots_and_grads(outputs: Any, grads: Any) -> tuple[list[Tensor], list[Tensor]]:
    outs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    if (
        grads is None
        or isinstance(grads, (Tensor, int, float, np.ndarray))
        or (
            isinstance(grads, list)
            and grads
            and not isinstance(grads[0], (Tensor, type(None), np.ndarray))
        )
    ):
        gl = [grads] if len(outs) == 1 else [grads] * len(outs)
    else:
        gl = list(grads)
    if len(gl) != len(outs):
        raise GradcliError(
            f"grad requires one gradient per output: got {len(gl)} gradients for "
            f"{len(outs)} outputs"
        )
    for o in outs:
        if not isinstance(o, Tensor):
            raise GradcliError(f"expected a Tensor to differentiate, got {type(o).__name__}")
        if not o.requires_grad:
            raise GradcliError(
                "element 0 of tensors does not require grad and does not have a grad_fn",
                hint="create the inputs with requires_grad=True",
            )
    return outs, [_check_gradient(o, g, i) for i, (o, g) in enumerate(zip(outs, gl))]


def backward(
    outputs: Any,
    gradients: Any = None,
    *,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Sequence[Tensor] | None = None,
) -> None:
    """`torch.autograd.backward`: accumulate into the `.grad` of leaves (or of `inputs`)."""
    outs, gl = _roots_and_grads(outputs, gradients)
    retain = create_graph if retain_graph is None else retain_graph
    capture = list(inputs) if inputs else []
    wanted = {id(c) for c in capture}
    got = run_backward(outs, gl, create_graph=create_graph, retain_graph=retain, capture=capture)
    for t, g in got.values():
        # Without `inputs`: the leaves; with it: exactly those tensors.
        if not t.requires_grad or (id(t) not in wanted if capture else t.node is not None):
            continue
        if not create_graph:
            # A copy: the gradient may be the caller's own upstream array (or shared with
            # another leaf's), and `.grad.zero_()` must never reach those.
            g = Tensor(np.array(g.data))
        t.grad = g if t.grad is None else t.grad + g


def grad(
    outputs: Any,
    inputs: Any,
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    allow_unused: bool | None = None,
    materialize_grads: bool = False,
) -> tuple[Tensor | None, ...]:
    """`torch.autograd.grad`: the gradients, returned, with no `.grad` touched."""
    outs, gl = _roots_and_grads(outputs, grad_outputs)
    ins = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    for t in ins:
        if not isinstance(t, Tensor) or not t.requires_grad:
            raise GradcliError("One of the differentiated Tensors does not require grad")
    retain = create_graph if retain_graph is None else retain_graph
    got = run_backward(outs, gl, create_graph=create_graph, retain_graph=retain, capture=ins)
    result: list[Tensor | None] = []
    for i, t in enumerate(ins):
        g = got[id(t)][1] if id(t) in got else None
        if g is None:
            if materialize_grads:
                g = Tensor(np.zeros(t.shape, dtype=t.dtype))
            elif not allow_unused:
                raise GradcliError(
                    "One of the differentiated Tensors appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior.",
                    hint=f"input {i} does not influence the output",
                )
        result.append(g)
    return tuple(result)


def _custom_vjp(
    g: Tensor, out: Tensor, *inputs: Tensor, _vjp: Callable[[Tensor], Any], _name: str
) -> tuple:
    nb = g.ndim - out.ndim
    if nb:
        # A user's backward is written for one upstream gradient: run it per batch element.
        flat = g.reshape((-1,) + out.shape)
        per = [
            _custom_vjp(flat[i], out, *inputs, _vjp=_vjp, _name=_name) for i in range(flat.shape[0])
        ]
        from ..surface.functional import stack

        return tuple(
            None
            if per[0][k] is None
            else stack([p[k] for p in per]).reshape(g.shape[:nb] + inputs[k].shape)
            for k in range(len(inputs))
        )
    res = _vjp(g)
    res = res if isinstance(res, tuple) else (res,)
    if len(res) != len(inputs):
        raise GradcliError(
            f"function {_name}Backward returned an incorrect number of gradients (expected "
            f"{len(inputs)}, got {len(res)})"
        )
    out_grads = []
    for i, (r, t) in enumerate(zip(res, inputs)):
        if r is None:
            out_grads.append(None)
            continue
        r = as_tensor(r, like=t)
        if r.shape != t.shape:
            raise GradcliError(
                f"function {_name}Backward returned an invalid gradient at index {i} - got "
                f"{list(r.shape)} but expected shape compatible with {list(t.shape)}"
            )
        out_grads.append(r)
    return tuple(out_grads)


def custom_apply(
    name: str,
    inputs: Sequence[Tensor],
    forward: Callable[[], Any],
    vjp: Callable[[Tensor], Any],
    n_inputs: int,
    label: str | None = None,
) -> Tensor:
    """Run a user-defined function whose gradient is the user's own `vjp` (a custom
    `torch.autograd.Function`, or `f` with a companion `f_backward`)."""
    with no_grad():
        result = forward()
    if not isinstance(result, Tensor):
        raise GradcliError(
            f"{name} must return a single Tensor with a custom gradient, got "
            f"{type(result).__name__}"
        )
    # The output is the very tensor forward returned when that is a fresh one, so that a
    # ctx.save_for_backward(result) in forward saves the graph's output, as in PyTorch (its
    # backward is then differentiable again through it).
    fresh = (
        result.node is None and not result.requires_grad and all(result is not t for t in inputs)
    )
    out = result if fresh else Tensor(result.data)
    if _GradMode.enabled and any(t.requires_grad for t in inputs):
        op = Op(
            name=name,
            forward=lambda *a: result.data,
            vjp=_custom_vjp,
            torch_name=label or f"{name}Backward",
            formula="user-defined",
            kind="custom",
        )
        out.requires_grad = True
        out.node = Node(op, tuple(inputs), {"_vjp": vjp, "_name": name}, out, label)
    return out


# The registry; its last line imports gradcli.functional, which installs the operators and
# methods on Tensor. Whichever of engine / ops / functional is imported first, all three end up
# complete (each binds the others as modules and reads their attributes only when called).
from ..ops import elementwise as _ops  # noqa: E402,F401
