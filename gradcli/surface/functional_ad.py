"""`torch.autograd.functional`: vjp, jvp, jacobian, hessian, vhp and hvp of a Python function,
with PyTorch's arguments (`create_graph`, `strict`, `vectorize`, `strategy`), return structures
(a Tensor, or tuples of tuples for several inputs / outputs) and error messages.

How PyTorch computes them, and so how this does (the numbers, the signs of zeros and the
`grad_fn` of the results then come out as PyTorch's):
- the inputs enter as fresh leaves that require grad (`detach().requires_grad_()`), or, with
  `create_graph=True` and an input that already requires grad, as a view of it (the results
  are then differentiable with respect to the caller's tensors too);
- a Jacobian is built row by row, one reverse pass per output element with a one-hot upstream
  gradient, the rows stacked and viewed as `output.shape + input.shape` (`ViewBackward0`);
  `strategy="forward-mode"` (with `vectorize=True`) carries one tangent per input element
  through the recorded graph instead (`core.forward`);
- `jvp` and `hvp` use the double-backward trick: the VJP `u -> J^T u` is linear in `u`, so its
  own VJP with `v` as upstream gradient is `J v`;
- without `create_graph` the results are detached.

`vectorize=True` computes the same rows (gradcli's passes are already cheap); it changes only
which argument combinations are refused, as in PyTorch. `func` is any Python callable of
tensors: the interpreter passes a program's functions and lambdas in, called under the run's
limits (a tick of the time budget per row; the Jacobian's size is checked before the rows).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError
from ..core import autograd, hooks
from ..core import forward as forward_mode
from ..core import primitives as P
from ..core.graph import ancestors, on_path
from ..core.op import apply
from ..core.tensor import Repeated, Tensor, _GradMode, enable_grad, grad_enabled, no_grad
from . import functional as F
from .printing import Size

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


# --- helpers shared with torch.func ---------------------------------------------------------


def pytype(v: Any) -> str:
    """A value's class as Python prints it: `<class 'torch.Tensor'>`, `<class 'int'>`."""
    if isinstance(v, Tensor):
        return "<class 'torch.Tensor'>"
    if v is None:
        return "<class 'NoneType'>"
    if isinstance(v, (bool, int, float, str, list, tuple, dict, complex)):
        return f"<class '{type(v).__name__}'>"
    if callable(v):
        return "<class 'function'>"
    return f"<class '{type(v).__name__}'>"


def error(message: str, cls: str = "RuntimeError", hint: str | None = None) -> GradcliError:
    """PyTorch's error, in its words, as the Python class it raises (a program may catch it,
    even where the words say "not supported")."""
    e = GradcliError(message, hint=hint).mirror(cls)
    e.pytorch_words = True  # type: ignore[attr-defined]
    return e


def grad_mode(enabled: bool) -> Any:
    """`torch.set_grad_enabled(enabled)` as a context."""
    return enable_grad() if enabled else no_grad()


REQUIRES_GRAD_INSIDE = (
    "You are attempting to call Tensor.requires_grad_() (or perhaps using "
    "torch.autograd.functional.* APIs) inside of a function being transformed by a functorch "
    "transform. This is unsupported, please attempt to use the functorch transforms (e.g. grad, "
    "vjp, jacrev, jacfwd, hessian) or call requires_grad_() outside of a function being "
    "transformed instead."
)


def requiring_grad(t: Tensor) -> Tensor:
    """`t.detach().requires_grad_()`: a fresh leaf with t's value."""
    if t.dtype.kind != "f":
        raise error("only Tensors of floating point dtype can require gradients")
    d = t.detach()
    d.requires_grad = True
    return d


def grads(
    outputs: Sequence[Tensor | None],
    inputs: Sequence[Tensor],
    grad_outputs: Sequence[Any] | None = None,
    create_graph: bool = False,
    retain_graph: bool | None = None,
) -> tuple[Tensor | None, ...]:
    """`torch.autograd.grad` of the outputs that require grad (None for every input when none
    does), unused inputs given None."""
    gos = list(grad_outputs) if grad_outputs is not None else [None] * len(outputs)
    pairs = [(o, g) for o, g in zip(outputs, gos) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return autograd.grad(
        [o for o, _ in pairs],
        list(inputs),
        [g for _, g in pairs],
        retain_graph=retain_graph,
        create_graph=create_graph,
        allow_unused=True,
    )


def onehot(t: Tensor, k: int) -> Tensor:
    """A tensor like `t` with a one at flat index k, zeros elsewhere."""
    e = np.zeros(t.data.size, dtype=t.dtype)
    e[k] = 1
    return Tensor(e.reshape(t.shape))


def jacobian_size(n_out: int, n_in: int, what: str) -> None:
    """The Jacobian's entries against the limit, before any row is computed."""
    limits.JACOBIAN_ENTRIES.check(n_out * n_in, f"the number of entries of {what}")


def tangents_through(
    outputs: Sequence[Tensor],
    inputs: Sequence[Tensor],
    seeds: Sequence[Tensor],
    nb: int,
    wrapped: bool = False,
    attached: bool = False,
) -> list[Tensor | None]:
    """Forward mode: the tangents of `outputs` when `inputs` (recorded leaves or tensors on the
    outputs' graph) carry `seeds` (each with `nb` leading batch axes); None where an output
    does not depend on the inputs. `wrapped`: torch.func's transforms (`core.forward.push`)."""
    nodes = ancestors(list(outputs))
    _, path = on_path(nodes, list(inputs))
    refuse_no_formula(path)
    tangent: dict[int, Tensor] = {}
    for t, s in zip(inputs, seeds):
        tangent[id(t)] = s if id(t) not in tangent else tangent[id(t)] + s
    forward_mode.push(path, tangent, nb, wrapped=wrapped, attached=attached)
    return [tangent.get(id(o)) for o in outputs]


def refuse_no_formula(path: Sequence[Any]) -> None:
    """PyTorch's refusal when a tangent reaches an op derivatives.yaml gives no forward formula
    (`dual.NO_FORWARD_AD`; gradcli's own forward-mode Jacobians have one for some)."""
    from ..core import dual

    for node in path:
        aten = dual.NO_FORWARD_AD.get(node.op.name)
        if aten is None:
            continue
        if aten == "_cdist_forward" and any(
            n.name() == "PdistBackward0" and any(t is node.out for t in n.inputs) for n in path
        ):
            aten = "_pdist_forward"  # (gradcli's pdist: cdist, then the upper triangle read)
        raise dual.not_implemented(aten)


# --- PyTorch's argument conventions ---------------------------------------------------------


def _as_tuple(value: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple[Tensor, ...]]:
    """A Tensor or a tuple of Tensors, as a tuple, and whether it was one."""
    was_tuple = isinstance(value, tuple)
    items = value if was_tuple else (value,)
    for i, el in enumerate(items):
        if not isinstance(el, Tensor):
            where = f"the value at index {i}" if was_tuple else f"the given {arg_name}"
            raise error(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                f"Tensors but {where} has type {pytype(el)}.",
                "TypeError",
            )
    return was_tuple, items


def _prepare(inputs: Sequence[Tensor], create_graph: bool, need_graph: bool) -> tuple:
    """The inputs as the function sees them: a view of an input that requires grad when the
    results must stay differentiable, a fresh leaf otherwise."""
    out = []
    for t in inputs:
        if create_graph and t.requires_grad:
            out.append(F.view_as(t, t))
        elif need_graph:
            if _GradMode.transforms:  # PyTorch's requires_grad_() inside torch.func
                raise error(REQUIRES_GRAD_INSIDE)
            out.append(requiring_grad(t))
        else:
            out.append(t.detach())
    return tuple(out)


def _finish(values: Any, create_graph: bool) -> Any:
    """Detached unless the graph was asked for (nested tuples kept)."""
    if isinstance(values, tuple):
        return tuple(_finish(v, create_graph) for v in values)
    if values is None or create_graph:
        return values
    return values.detach()


def _unpack(res: tuple, tupled: bool | tuple[bool, bool]) -> Any:
    """A one-element tuple back to its element where the argument was not a tuple."""
    if isinstance(tupled, tuple):
        outer, inner = tupled
        if not inner:
            res = tuple(r[0] for r in res)
        return res if outer else res[0]
    return res if tupled else res[0]


def _validate_v(v: tuple, other: tuple, other_tupled: bool) -> None:
    if len(v) != len(other):
        if other_tupled:
            raise error(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise error("The given v should contain a single Tensor.")
    for i, (a, b) in enumerate(zip(v, other)):
        if a.shape != b.shape:
            where = f"Entry {i} in " if other_tupled else ""
            raise error(
                f"{where}v has invalid size: should be {Size(b.shape)} but got {Size(a.shape)}."
            )


def _check_requires_grad(values: Sequence[Tensor | None], kind: str, strict: bool) -> None:
    if not strict:
        return
    for i, t in enumerate(values):
        if t is None:
            raise error(
                f"The output of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode."
            )
        if t.requires_grad:
            continue
        if kind == "hessian":
            raise error(
                f"The hessian of the user-provided function with respect to input {i} is "
                "independent of the input. This is not allowed in strict mode. You should "
                "ensure that your function is thrice differentiable and that the hessian "
                "depends on the inputs."
            )
        if kind == "jacobian":
            raise error(
                "While computing the hessian, found that the jacobian of the user-provided "
                f"function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example)."
            )
        if kind == "grad_inputs":
            raise error(
                f"The gradient with respect to input {i} is independent of the inputs of the "
                "user-provided function. This is not allowed in strict mode."
            )
        raise error(
            f"Output {i} of the user-provided function does not require gradients. The "
            "outputs must be computed in a differentiable manner from the input when running "
            "in strict mode."
        )


_ZERO_MESSAGES = {
    "back": "The output of the user-provided function is independent of input {i}. This is "
    "not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
    "grad_outputs when using the double backward trick to compute forward mode gradients. "
    "This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
    "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry "
    "{i} in the grad_jacobian. This is not allowed in strict mode as it prevents from using "
    "the double backward trick to replace forward mode AD.",
}


def _fill_zeros(
    got: Sequence[Tensor | None],
    refs: Sequence[Tensor],
    strict: bool,
    create_graph: bool,
    stage: str,
) -> tuple[Tensor, ...]:
    res = []
    for i, g in enumerate(got):
        if g is None:
            if strict:
                raise error(_ZERO_MESSAGES[stage].format(i=i))
            g = Tensor(np.zeros(refs[i].shape, dtype=refs[i].dtype))
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise error(
                f"The {what} of the user-provided function is independent of input {i}. This "
                "is not allowed in strict mode when create_graph=True."
            )
        res.append(g)
    return tuple(res)


def _v_or_single(v: Any, refs: tuple, tupled: bool, fn: str, create_graph: bool, who: str) -> Any:
    """The `v` argument checked against `refs` (None only where refs is one element)."""
    if v is not None:
        _, vs = _as_tuple(v, "v", fn)
        vs = _prepare(vs, create_graph, need_graph=False)
        _validate_v(vs, refs, tupled)
        return vs
    if len(refs) != 1 or refs[0].data.size != 1:
        raise error(
            f"The vector v can only be None if the {who} is a single Tensor with a single element."
        )
    return None


@contextlib.contextmanager
def _recording() -> Iterator[None]:
    with enable_grad():
        yield


# --- the functions --------------------------------------------------------------------------


def vjp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """`torch.autograd.functional.vjp`: (func(inputs), v^T J)."""
    with _recording():
        in_tupled, ins = _as_tuple(inputs, "inputs", "vjp")
        ins = _prepare(ins, create_graph, need_graph=True)
        out_tupled, outs = _as_tuple(func(*ins), "outputs of the user-provided function", "vjp")
        _check_requires_grad(outs, "outputs", strict)
        if v is not None:
            vs = _v_or_single(v, outs, out_tupled, "vjp", create_graph, "")
        elif len(outs) != 1 or outs[0].data.size != 1:
            raise error(
                "The vector v can only be None if the user-provided function returns a single "
                "Tensor with a single element."
            )
        else:
            vs = None
    with grad_mode(True if create_graph else grad_enabled()):
        got = grads(outs, ins, vs, create_graph=create_graph)
        res = _fill_zeros(got, ins, strict, create_graph, "back")
    return (
        _unpack(_finish(outs, create_graph), out_tupled),
        _unpack(_finish(res, create_graph), in_tupled),
    )


def jvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """`torch.autograd.functional.jvp`: (func(inputs), J v), by the double-backward trick."""
    with _recording():
        in_tupled, ins = _as_tuple(inputs, "inputs", "jvp")
        ins = _prepare(ins, create_graph, need_graph=True)
        vs = _v_or_single(
            v, ins, in_tupled, "jvp", create_graph, "input to the user-provided function"
        )
        out_tupled, outs = _as_tuple(func(*ins), "outputs of the user-provided function", "jvp")
        _check_requires_grad(outs, "outputs", strict)
        us = tuple(requiring_grad(Tensor(np.zeros(o.shape, dtype=o.dtype))) for o in outs)
        grad_ins = grads(outs, ins, us, create_graph=True)
        _check_requires_grad(grad_ins, "grad_inputs", strict)
    with grad_mode(True) if create_graph else contextlib.nullcontext():
        got = grads(grad_ins, us, vs, create_graph=create_graph)
        res = _fill_zeros(got, outs, strict, create_graph, "back_trick")
    return (
        _unpack(_finish(outs, create_graph), out_tupled),
        _unpack(_finish(res, create_graph), out_tupled),
    )


def jacobian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """`torch.autograd.functional.jacobian`: d outputs / d inputs, one block per (output,
    input) pair, each of shape `output.shape + input.shape`."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise error(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more '
            'performant. Otherwise, prefer to use "reverse-mode".',
            "AssertionError",
        )
    if strategy == "forward-mode":
        if create_graph:
            raise error(
                "torch.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either set '
                '`create_graph=False` or `strategy="reverse-mode"`.',
                "NotImplementedError",
            )
        return _jacobian_forward(func, inputs, strict, vectorize)
    with _recording():
        in_tupled, ins = _as_tuple(inputs, "inputs", "jacobian")
        ins = _prepare(ins, create_graph, need_graph=True)
        out_tupled, outs = _as_tuple(
            func(*ins), "outputs of the user-provided function", "jacobian"
        )
        _check_requires_grad(outs, "outputs", strict)
        if vectorize and strict:
            raise error(
                "torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or "
                "`vectorize=False`."
            )
        jacobian_size(
            sum(int(o.data.size) for o in outs),
            sum(int(t.data.size) for t in ins),
            "the Jacobian torch.autograd.functional.jacobian computes",
        )
        blocks = []
        # vectorize=True is PyTorch's vmap over one VJP of all the outputs (the others'
        # cotangents zeros): their zero cross terms summed in, as jacrev's rows
        joint = vectorize and len(outs) > 1
        # vectorize=True: PyTorch vmaps one backward pass over the rows, running hooks once
        runs = (
            Repeated(
                "a hook during the vectorized jacobian's backward passes",
                "row of the Jacobian",
                "make the change outside the hook (from the Jacobian returned), or pass "
                "vectorize=False (one backward pass a row, as PyTorch's)",
                quiet=True,
            )
            if vectorize
            else contextlib.nullcontext()
        )
        row = 0
        with runs:
            for i, out in enumerate(outs):
                rows: list[list[Tensor]] = [[] for _ in ins]
                for k in range(int(out.data.size)):
                    hooks.observer.tick()
                    if vectorize:
                        runs.run(row)
                    row += 1
                    if joint:
                        cots = [
                            onehot(out, k) if m == i else Tensor(np.zeros(o.shape, dtype=o.dtype))
                            for m, o in enumerate(outs)
                        ]
                        got = grads(list(outs), ins, cots, create_graph, retain_graph=True)
                    else:
                        got = grads([out], ins, [onehot(out, k)], create_graph, retain_graph=True)
                    for j, (g, t) in enumerate(zip(got, ins)):
                        if g is None:
                            if strict:
                                raise error(
                                    f"Output {i} of the user-provided function is independent of "
                                    f"input {j}. This is not allowed in strict mode."
                                )
                            g = Tensor(np.zeros(t.shape, dtype=t.dtype))
                        elif strict and create_graph and not g.requires_grad:
                            raise error(
                                "The jacobian of the user-provided function is independent of "
                                f"input {i}. This is not allowed in strict mode when "
                                "create_graph=True."
                            )
                        rows[j].append(g)
                blocks.append(
                    tuple(_stacked(r, out.shape, t, create_graph) for r, t in zip(rows, ins))
                )
    return _unpack(_finish(tuple(blocks), create_graph), (out_tupled, in_tupled))


def _stacked(rows: list[Tensor], out_shape: tuple, t: Tensor, create_graph: bool) -> Tensor:
    """The rows of one block as a tensor of shape out_shape + t.shape (PyTorch's stack and
    view, recorded when the graph is kept)."""
    if not rows:  # an output without elements
        return Tensor(np.zeros(out_shape + t.shape, dtype=t.dtype))
    if create_graph and any(r.requires_grad for r in rows):
        return F.reshape(F.stack(rows), *(out_shape + t.shape))
    data = np.stack([np.asarray(r.data) for r in rows]).reshape(out_shape + t.shape)
    return Tensor(data)


# Set while hessian computes its outer Jacobian (`_jacobian_forward`).
_OUTER_OF_HESSIAN = [False]


def _jacobian_forward(func: Callable[..., Any], inputs: Any, strict: bool, vectorize: bool) -> Any:
    if strict:
        raise error(
            "torch.autograd.functional.jacobian: `strict=True` and "
            '`strategy="forward-mode"` are not supported together (yet). Please either set '
            '`strict=False` or `strategy="reverse-mode"`.'
        )
    in_tupled, ins = _as_tuple(inputs, "inputs", "jacobian")
    if not vectorize:
        raise error(
            "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
            "only implemented for `vectorize=True`.",
            "NotImplementedError",
        )
    if grad_enabled() and (not _OUTER_OF_HESSIAN[0] or any(t.requires_grad for t in ins)):
        # As PyTorch: func on dual tensors with grad mode on, so tangents whose forward formula
        # reads a tensor that requires grad (an input, or a parameter func closes over) come out
        # attached to its graph, and the Jacobian prints that grad_fn. (hessian's outer
        # forward-mode Jacobian, over a reverse pass, pushes tangents through the recorded
        # graph below instead.)
        return _jacobian_dual(func, ins, in_tupled)
    with _recording():
        leaves = tuple(requiring_grad(t) for t in ins)
        out_tupled, outs = _as_tuple(func(*leaves), "outputs", "None")
        sizes = [int(t.data.size) for t in ins]
        total = sum(sizes)
        jacobian_size(
            sum(int(o.data.size) for o in outs),
            total,
            "the Jacobian torch.autograd.functional.jacobian computes",
        )
        seeds = one_hot_seeds(ins)
    tans = tangents_through(outs, leaves, seeds, 1)
    if _OUTER_OF_HESSIAN[0] and grad_enabled():
        # PyTorch's forward-over-reverse Hessian makes its dual inputs require grad: the blocks
        # whose tangents exist come out attached (grad_fn ReshapeAliasBackward0, ViewBackward0
        # where flat) to a graph that reaches none of the caller's tensors.
        anchor = Tensor(np.zeros((), dtype=outs[0].dtype), requires_grad=True)
        dense = [
            None
            if d is None
            else Tensor(np.ascontiguousarray(np.broadcast_to(d.data, (total,) + o.shape)))
            for o, d in zip(outs, tans)
        ]
        blocks = _forward_blocks(outs, dense, ins, lambda o, d: d is not None, anchor)
        if not in_tupled:
            return tuple(b[0] for b in blocks) if out_tupled else blocks[0][0]
        return blocks if out_tupled else blocks[0]
    # (and with grad mode off, those blocks are leaves that require grad, as PyTorch's)
    leaf = _OUTER_OF_HESSIAN[0] and not grad_enabled()
    blocks = []
    for o, d in zip(outs, tans):
        col = (
            np.zeros((total,) + o.shape, dtype=o.dtype)
            if d is None
            else np.broadcast_to(np.asarray(d.data), (total,) + o.shape)
        )
        flat = col.reshape(total, -1).T  # (output elements, input elements)
        row, off = [], 0
        for t, n in zip(ins, sizes):
            block = np.ascontiguousarray(flat[:, off : off + n]).reshape(o.shape + t.shape)
            row.append(Tensor(block, requires_grad=leaf and d is not None))
            off += n
        blocks.append(row)
    # Lists, not tuples, where both are tuples: what PyTorch's forward-mode path returns.
    if not in_tupled:
        return tuple(b[0] for b in blocks) if out_tupled else blocks[0][0]
    return blocks if out_tupled else blocks[0]


def one_hot_seeds(ins: Sequence[Tensor]) -> list[Tensor]:
    """One tangent per input element: the rows of the identity, split by input."""
    sizes = [int(t.data.size) for t in ins]
    total = sum(sizes)
    seeds, off = [], 0
    for t, n in zip(ins, sizes):
        s = np.zeros((total, n), dtype=t.dtype)
        s[off : off + n] = np.eye(n, dtype=t.dtype)
        seeds.append(Tensor(s.reshape((total,) + t.shape)))
        off += n
    return seeds


def _jacobian_dual(func: Callable[..., Any], ins: tuple[Tensor, ...], in_tupled: bool) -> Any:
    """Forward mode as PyTorch runs it when an input requires grad: `func` on dual tensors
    (the inputs themselves, one tangent per input element on a batch axis), so the tangents
    (and the Jacobian) stay attached to the inputs' graph where they depend on them."""
    from ..core import dual
    from ..core.graph import ancestors, next_seq

    sizes = [int(t.data.size) for t in ins]
    total = sum(sizes)
    jacobian_size(total, total, "the tangents torch.autograd.functional.jacobian carries")
    since = next_seq()
    dual.enter(nb=1)
    try:
        duals = []
        for t, s in zip(ins, one_hot_seeds(ins)):
            d = apply_view(t)
            dual.set_tangent(d, s)
            duals.append(d)
        out_tupled, outs = _as_tuple(func(*duals), "outputs", "None")
        jacobian_size(
            sum(int(o.data.size) for o in outs),
            total,
            "the Jacobian torch.autograd.functional.jacobian computes",
        )
        tans = [dual.tangent(o) for o in outs]
    finally:
        if dual.level() is not None:
            dual.leave()
    # Where PyTorch's forward formulas read an input's value (x * 2, relu), its tangents are
    # attached to the inputs though gradcli's rules did not need them: tie them (a `where`
    # that always takes the tangent: the same values, a zero gradient to the input).
    tie = any(n.op.jvp_reads_primal for n in ancestors(outs, since=since))
    anchor = next((t for t in ins if t.requires_grad), None)

    def tied(o: Tensor, d: Tensor | None) -> bool:
        return tie and o.requires_grad and d is not None and not d.requires_grad

    blocks = _forward_blocks(outs, tans, ins, tied, anchor)
    if not in_tupled:
        return tuple(b[0] for b in blocks) if out_tupled else blocks[0][0]
    return blocks if out_tupled else blocks[0]


def _forward_blocks(
    outs: Sequence[Tensor],
    tans: Sequence[Tensor | None],
    ins: Sequence[Tensor],
    tied: Callable[[Tensor, Tensor | None], bool],
    anchor: Tensor | None,
) -> list:
    """The Jacobian blocks of a forward-mode Jacobian as PyTorch's `_jacfwd` makes them, one row
    per output: the tangents (input elements first) split by input, permuted and reshaped.
    Where `tied(o, d)` the tangent is first tied to `anchor` (a `where` that always takes the
    tangent: the same values, a zero gradient to the anchor), where PyTorch's is attached."""
    from ..ops import shape as SH

    sizes = [int(t.data.size) for t in ins]
    total = sum(sizes)
    blocks = []
    for o, d in zip(outs, tans):
        tie = anchor is not None and tied(o, d)
        if d is None:
            d = Tensor(np.zeros((total,) + o.shape, dtype=o.dtype))
        if tie:
            from . import functional as SF

            never = Tensor(np.zeros(d.shape, dtype=bool))
            d = SF.where(never, SF.sum(anchor).to(d.dtype), d)
        row, off = [], 0
        for t, n in zip(ins, sizes):
            part = d if n == total else apply(SH.index, d, idx=(slice(off, off + n),))
            if o.ndim:
                part = apply(SH.permute, part, perm=tuple(range(1, o.ndim + 1)) + (0,))
            # PyTorch's reshape: a view where the permuted Jacobian is contiguous, an alias of
            # its strides otherwise.
            flat = n <= 1 or int(o.data.size) <= 1
            label = "ViewBackward0" if flat else "ReshapeAliasBackward0"
            row.append(apply(P.reshape, part, shape=o.shape + t.shape, label=label))
            off += n
        blocks.append(row)
    return blocks


def apply_view(t: Tensor) -> Tensor:
    """`t` as a new tensor object viewing it (a dual input: its tangent is its own)."""
    return apply(P.reshape, t, shape=t.shape)


def hessian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """`torch.autograd.functional.hessian`: the Jacobian of the gradient of a function with a
    single-element output, one block per pair of inputs."""
    in_tupled, ins = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise error(
            'Expected strategy to be either "forward-mode" or "reverse-mode".', "AssertionError"
        )

    def single(*xs: Tensor) -> Tensor:
        out = func(*xs)
        out_tupled, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(outs, "outputs", strict)
        if out_tupled:
            raise error("The function given to hessian should return a single Tensor")
        if out.data.size != 1:
            raise error(
                "The Tensor returned by the function given to hessian should contain a single "
                "element"
            )
        return F.squeeze(out)

    def gradient(*xs: Tensor) -> Any:
        jac = jacobian(single, xs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    was = _OUTER_OF_HESSIAN[0]
    _OUTER_OF_HESSIAN[0] = True
    try:
        res = jacobian(
            gradient,
            ins,
            create_graph=create_graph,
            strict=strict,
            vectorize=vectorize,
            strategy=outer_jacobian_strategy,
        )
    finally:
        _OUTER_OF_HESSIAN[0] = was
    return _unpack(res, (in_tupled, in_tupled))


def _second_order(
    name: str, func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool, strict: bool
) -> tuple:
    """What vhp and hvp share: the inputs, v, the output and its gradient (recorded)."""
    in_tupled, ins = _as_tuple(inputs, "inputs", name)
    ins = _prepare(ins, create_graph, need_graph=True)
    vs = _v_or_single(v, ins, in_tupled, name, create_graph, "input to the user-provided function")
    out = func(*ins)
    out_tupled, outs = _as_tuple(out, "outputs of the user-provided function", name)
    _check_requires_grad(outs, "outputs", strict)
    if out_tupled:
        raise error(f"The function given to {name} should return a single Tensor")
    if outs[0].data.size != 1:
        raise error(
            f"The Tensor returned by the function given to {name} should contain a single element"
        )
    jac = grads(outs, ins, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict)
    return in_tupled, ins, vs, outs, out_tupled, jac


def vhp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """`torch.autograd.functional.vhp`: (func(inputs), v^T H)."""
    with _recording():
        in_tupled, ins, vs, outs, out_tupled, jac = _second_order(
            "vhp", func, inputs, v, create_graph, strict
        )
    with grad_mode(True if create_graph else grad_enabled()):
        got = grads(jac, ins, vs, create_graph=create_graph)
        res = _fill_zeros(got, ins, strict, create_graph, "double_back")
    return (
        _unpack(_finish(outs, create_graph), out_tupled),
        _unpack(_finish(res, create_graph), in_tupled),
    )


def hvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """`torch.autograd.functional.hvp`: (func(inputs), H v), by the double-backward trick."""
    with _recording():
        in_tupled, ins, vs, outs, out_tupled, jac = _second_order(
            "hvp", func, inputs, v, create_graph, strict
        )
        us = tuple(requiring_grad(Tensor(np.zeros(t.shape, dtype=t.dtype))) for t in ins)
        back = grads(jac, ins, us, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with grad_mode(True if create_graph else grad_enabled()):
        got = grads(back, us, vs, create_graph=create_graph)
        res = _fill_zeros(got, ins, strict, create_graph, "double_back_trick")
    return (
        _unpack(_finish(outs, create_graph), out_tupled),
        _unpack(_finish(res, create_graph), in_tupled),
    )
