"""User-defined gradients: a custom `torch.autograd.Function`, or `f` with a companion
`f_backward`. Each call records a node of kind "custom" whose VJP is the user's own."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..base.errors import GradcliError
from ..core.autograd import INTERNAL_NODES, unbroadcast
from ..core.inplace import mark_custom_view
from ..core.op import PACKED_OUTPUTS, Node, Op, apply, current, link_siblings
from ..core.sparse import SparseCOO
from ..core.tensor import (
    NOGRAD_CUSTOM,
    NOGRAD_VIEWS,
    Tensor,
    _GradMode,
    as_tensor,
    grad_enabled,
    no_grad,
)
from .arithmetic import cast
from .shape import index, index_put, reshape_to, select, stack


def _custom_vjp(
    g: Tensor, out: Tensor, *inputs: Tensor, _vjp: Callable[[Tensor], Any], _name: str
) -> tuple:
    nb = g.ndim - out.ndim
    if nb:
        # A user's backward is written for one upstream gradient: run it per batch element.
        flat = reshape_to(g, (-1,) + out.shape)
        per = [
            _custom_vjp(select(flat, i), out, *inputs, _vjp=_vjp, _name=_name)
            for i in range(flat.shape[0])
        ]
        return tuple(
            None
            if per[0][k] is None
            else reshape_to(
                apply(stack, *[p[k] for p in per], dim=0), g.shape[:nb] + inputs[k].shape
            )
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
        if r is None or type(r) is SparseCOO:  # (an embedding's sparse gradient, as it is)
            out_grads.append(r)
            continue
        r = as_tensor(r, like=t)
        if r.shape != t.shape:
            if not _expandable(t.shape, r.shape):
                raise GradcliError(
                    f"Function {_name}Backward returned an invalid gradient at index {i} - got "
                    f"{list(r.shape)} but expected shape compatible with {list(t.shape)}"
                )
            # the engine's validate_outputs: a gradient of a shape the input broadcasts to is
            # summed down to the input's (at::sum_to), as for a built-in op's
            r = unbroadcast(r, t.shape, 0)
        if r.dtype != t.dtype:
            # validate_outputs, after the shape: a float gradient, or one as complex as the
            # input (an integer or bool one for a real input), is cast to the input's dtype
            if r.dtype.kind != "f" and (r.dtype.kind == "c") != (t.dtype.kind == "c"):
                raise GradcliError(_COMPLEXITY)
            r = cast(r, t.dtype)
        out_grads.append(r)
    return tuple(out_grads)


_COMPLEXITY = (
    "Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) to be "
    "true, but got false.  (Could this error message be improved?  If so, please report an "
    "enhancement request to PyTorch.)"
)


def _expandable(shape: tuple[int, ...], to: tuple[int, ...]) -> bool:
    """Whether `shape` broadcasts to `to` (PyTorch's is_expandable_to)."""
    if len(shape) > len(to):
        return False
    return all(s in (1, t) for s, t in zip(reversed(shape), reversed(to)))


# `custom_apply(..., program=False)` adds its nodes to core.autograd's INTERNAL_NODES.
_PROGRAM = [True]


def custom_apply(*args: Any, program: bool = True, **kwargs: Any) -> Any:
    """`_custom_apply`; `program=False` for an op of gradcli's own whose `vjp` runs no
    program code (an embedding, a sparse product), unlike a program's Function, a
    module's backward hooks or a checkpoint's recomputation."""
    outer = _PROGRAM[0]
    _PROGRAM[0] = program
    try:
        return _custom_apply(*args, **kwargs)
    finally:
        _PROGRAM[0] = outer


def _internal(node: Node) -> Node:
    if not _PROGRAM[0]:
        INTERNAL_NODES.add(node)
    return node


def _custom_apply(
    name: str,
    inputs: Sequence[Tensor],
    forward: Callable[[], Any],
    vjp: Callable[..., Any],
    label: str | None = None,
    non_differentiable: Callable[[], Sequence[Any]] | None = None,
    materialize: Callable[[], bool] | None = None,
    once_differentiable: bool = False,
    dirty: Callable[[], Sequence[Any]] | None = None,
    jvp: Callable[[list[Tensor]], Any] | None = None,
) -> Any:
    """Run a user-defined function whose gradient is the user's own `vjp` (a custom
    `torch.autograd.Function`, or `f` with a companion `f_backward`).

    `forward()` returns a Tensor, or a tuple of outputs (a Function with several outputs);
    `vjp` is then called with one gradient per output. Asked after forward has run (it is
    where a Function says them): `non_differentiable()`, the outputs it marked so (they do not
    require grad, and their gradient is zeros, or None), and `materialize()`, whether outputs
    that received no gradient get zeros (True, PyTorch's default) or None.
    `once_differentiable` (PyTorch's decorator on backward): the user's backward runs outside
    the graph, so a gradient taken with create_graph=True does not require grad."""
    if _GradMode.dual:
        from ..core import dual

        if any(dual.tangent(t) is not None for t in inputs):
            if jvp is None:
                raise dual.custom_refused()
            return _with_jvp(
                name,
                inputs,
                forward,
                vjp,
                label,
                non_differentiable,
                materialize,
                once_differentiable,
                dirty,
                jvp,
            )
    for t in inputs:
        current(t)  # a view of a tensor changed since: as an op's input (`core.op.apply`)
    if once_differentiable:
        user_vjp = vjp

        def vjp(*grads: Any) -> Any:
            with no_grad():
                got = user_vjp(*grads)
            if grad_enabled() and any(isinstance(g, Tensor) and g.requires_grad for g in grads):
                return _delayed_error(got)
            return got

        vjp.__dict__.update(getattr(user_vjp, "__dict__", {}))  # (its ctx, its raw backward)

    with no_grad():
        result = forward()
    if NOGRAD_VIEWS:
        _outputs_not_nograd_views(result, inputs, non_differentiable)
    if isinstance(result, tuple):
        return _several(name, inputs, result, vjp, label, non_differentiable, materialize, jvp)
    if jvp is not None:
        vjp = _carrying(vjp, lambda ts: _one_tangent(name, jvp(ts), result))
    if not isinstance(result, Tensor):
        # PyTorch hands back any other value forward returns (a number, None, a list) as it
        # is, recording nothing: a list's tensors are forward's own, made under no_grad
        return result
    marked_dirty = {id(t) for t in dirty()} if dirty else set()
    if id(result) in marked_dirty and any(result is t for t in inputs):
        return _dirty_output(name, label, inputs, result, vjp)
    # The output is the very tensor forward returned when that is a fresh one, so that a
    # ctx.save_for_backward(result) in forward saves the graph's output, as in PyTorch (its
    # backward is then differentiable again through it).
    records = grad_enabled() and any(t.requires_grad for t in inputs)
    if not records:
        return _unrecorded(result, inputs)
    if NOGRAD_CUSTOM and result in NOGRAD_CUSTOM:
        return result  # (marked non-differentiable: returned as it is, see above)
    fresh = (
        result.node is None and not result.requires_grad and all(result is not t for t in inputs)
    )
    out = result if fresh else Tensor(result.data)
    marked = {id(t) for t in non_differentiable()} if non_differentiable else set()
    # an integer or bool output is never differentiable (PyTorch's isDifferentiableType)
    if id(result) not in marked and result.dtype.kind in "fc":
        op = _custom_op(name, label, result.data)
        out.requires_grad = True
        out.node = _internal(Node(op, tuple(inputs), {"_vjp": vjp, "_name": name}, out, label))
        if _made_view(result, inputs):
            mark_custom_view(out, 0, name)
    return out


_TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"


def _delayed_error(got: Any) -> Any:
    """The gradients a @once_differentiable backward returns when they are asked with a
    graph (create_graph=True and a gradient that requires grad), as PyTorch's decorator hands
    them back: each a detached copy made to require grad, passed through one `Error` node whose
    backward raises (so a second differentiation fails there, not silently)."""
    outs = got if isinstance(got, tuple) else (got,)
    fakes, slots = [], []  # (a None gradient is an input that needs none: `(None, 0)`)
    for v in outs:
        if isinstance(v, Tensor):
            fake = Tensor(v.data)
            fake.requires_grad = True
            fakes.append(fake)
            slots.append(fake)
        elif v is None:
            slots.append(Tensor(np.zeros((), np.float32)))
    if not fakes:
        return got

    def raiser(*grads: Any) -> Any:
        raise GradcliError(_TWICE).mirror("RuntimeError")

    def forward() -> Any:
        made = tuple(Tensor(f.data) for f in fakes)
        return made if len(made) > 1 else made[0]

    wrapped = custom_apply(
        "Error", slots, forward, raiser, label="torch::autograd::Error", program=False
    )
    wrapped = list(wrapped) if isinstance(wrapped, tuple) else [wrapped]
    result = [wrapped.pop(0) if isinstance(v, Tensor) else v for v in outs]
    return tuple(result) if isinstance(got, tuple) else result[0]


def _carrying(vjp: Callable[..., Any], user_jvp: Callable[[list[Tensor]], Any]) -> Any:
    """The node's vjp carrying the Function's jvp staticmethod, which torch.func's forward
    mode (`core.forward`) uses for the node's tangent as PyTorch does."""

    def carried(*grads: Any) -> Any:
        return vjp(*grads)

    carried.__dict__.update(getattr(vjp, "__dict__", {}))  # (its ctx, its raw backward)
    carried.user_jvp = user_jvp  # type: ignore[attr-defined]
    return carried


def _one_tangent(name: str, got: Any, out: Tensor) -> Tensor:
    """The jvp's result for a Function with one output: one tensor of the output's shape."""
    gots = got if isinstance(got, tuple) else (got,)
    if len(gots) != 1:
        raise GradcliError(
            f"{name}.jvp returned {len(gots)} tangents for 1 outputs",
            hint="return one tangent per output of forward, in order",
        )
    return _tangent_checked(gots[0], out)


def _tangent_checked(d: Any, o: Tensor) -> Tensor:
    if not isinstance(d, Tensor):
        return Tensor(np.zeros(o.shape, o.dtype))
    if d.shape != o.shape:
        raise GradcliError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(o.shape)} while "
            f"the given forward gradient is of size {list(d.shape)}."
        )
    return d


def _outputs_not_nograd_views(
    result: Any, inputs: Sequence[Tensor], non_differentiable: Callable[[], Sequence[Any]] | None
) -> None:
    """The views forward made (it runs under no_grad) are the Function's outputs. A
    differentiable one PyTorch gives the Function's node: no longer a view made under no_grad
    (`core.tensor.NOGRAD_VIEWS`), its requires_grad the Function's. One without a node (grad
    mode off, no input requiring grad, or marked non-differentiable, or not of a float dtype)
    PyTorch returns as it is: requires_grad=True like any view made under no_grad, refused in
    place with the custom Function's words (`core.tensor.NOGRAD_CUSTOM`)."""
    records = grad_enabled() and any(t.requires_grad for t in inputs)
    marked = {id(t) for t in non_differentiable()} if records and non_differentiable else set()
    for r in result if isinstance(result, tuple) else (result,):
        if isinstance(r, Tensor) and r in NOGRAD_VIEWS:
            if not records or id(r) in marked or r.dtype.kind not in "fc":
                NOGRAD_CUSTOM.add(r)
                continue
            NOGRAD_VIEWS.discard(r)
            r.requires_grad = False


def _with_jvp(
    name: str,
    inputs: Sequence[Tensor],
    forward: Callable[[], Any],
    vjp: Callable[..., Any],
    label: str | None,
    non_differentiable: Any,
    materialize: Any,
    once_differentiable: bool,
    dirty: Any,
    jvp: Callable[[list[Tensor]], Any],
) -> Any:
    """A Function applied to dual tensors (forward-mode AD) with its own jvp: forward runs on
    the primal values (no tangent carried inside), then jvp gets each input's tangent (zeros
    where an input has none, as PyTorch gives them) and its results are the outputs' tangents."""
    from ..core import dual

    given = [dual.tangent(t) for t in inputs]
    nb = next(d.ndim - t.ndim for d, t in zip(given, inputs) if d is not None)
    if nb > 0:
        # batched tangents (functional.jacobian's forward-mode strategy): the jvp is written
        # for one tangent per input, so it runs once per batch element
        lead = next(d.shape[:nb] for d in given if d is not None)
        one = jvp

        def jvp(_ts: list[Tensor]) -> Any:  # noqa: F811
            per = []
            for i in np.ndindex(*lead):
                ts = [
                    Tensor(d.data[i]) if d is not None else Tensor(np.zeros(t.shape, t.dtype))
                    for d, t in zip(given, inputs)
                ]
                got = one(ts)
                per.append(got if isinstance(got, tuple) else (got,))
            stacked = tuple(
                Tensor(
                    np.stack([np.asarray(p[k].data) for p in per]).reshape(lead + per[0][k].shape)
                )
                if isinstance(per[0][k], Tensor)
                else per[0][k]
                for k in range(len(per[0]))
            )
            return stacked if len(stacked) > 1 else stacked[0]

    tangents = []
    for t, d in zip(inputs, given):
        tangents.append(d if d is not None else Tensor(np.zeros(t.shape, t.dtype)))
    versions = [None if d is None else d._version for d in given]
    raw: list[Any] = []

    def forward_seen() -> Any:
        raw.append(forward())
        return raw[0]

    with dual.suspended():
        out = custom_apply(
            name,
            inputs,
            forward_seen,
            vjp,
            label,
            non_differentiable,
            materialize,
            once_differentiable,
            dirty,
        )
        # (the jvp runs in the program's grad mode, as PyTorch's: a tangent computed from
        # tensors that require grad is differentiable)
        got = jvp(tangents)
    outs = out if isinstance(out, tuple) else (out,)
    gots = got if isinstance(got, tuple) else (got,)
    if len(gots) != len(outs):
        raise GradcliError(
            f"Function's jvp returned an invalid number of forward gradients (expected "
            f"{len(outs)} but got {len(gots)})",
            hint="return one tangent per output of forward, in order",
        )
    if raw and nb == 0:
        # (a batched jvp's results are stacked copies: PyTorch's view rules apply per element)
        nondiff = {id(t) for t in non_differentiable()} if non_differentiable else set()
        _check_view_tangents(raw[0], gots, inputs, given, dirty, versions, nondiff)
    raws = (raw[0] if isinstance(raw[0], tuple) else (raw[0],)) if raw else ()
    marked = {id(t) for t in dirty()} if dirty else set()
    for k, (o, d) in enumerate(zip(outs, gots)):
        if isinstance(o, Tensor) and isinstance(d, Tensor) and o.dtype.kind in "fc":
            if d.shape[nb:] != o.shape:
                raise GradcliError(
                    f"Trying to set a forward gradient that has a different size than that of "
                    f"the original Tensor, this is not supported. Tensor is of size "
                    f"{list(o.shape)} while the given forward gradient is of size "
                    f"{list(d.shape[nb:])}."
                )
            r = raws[k] if k < len(raws) else None
            i = next((j for j, t in enumerate(inputs) if t is r), None)
            if i is not None and given[i] is None and id(r) not in marked and r._base is None:
                # an input without a tangent returned as-is: PyTorch sets the output's
                # tangent as an in-place change of its view, so the input gets it as well
                d = Tensor(d.data.copy())
                dual.set_tangent(inputs[i], d)
            dual.set_tangent(o, d)
    return out


def _check_view_tangents(
    raw: Any,
    gots: tuple,
    inputs: Sequence[Tensor],
    given: list[Tensor | None],
    dirty: Any,
    versions: list[int | None],
    nondiff: set[int],
) -> None:
    """PyTorch's rule for a Function's forward that returns an input as-is (not marked dirty)
    or a view of one: its output is a view of that input, so when the input has a tangent the
    jvp must return a view of that tangent (of its base, when the tangent is itself a view)."""
    raws = raw if isinstance(raw, tuple) else (raw,)
    marked = {id(t) for t in dirty()} if dirty else set()

    def root(t: Tensor) -> Tensor:
        return t._base if t._base is not None else t

    for k, (r, d) in enumerate(zip(raws, gots)):
        if not isinstance(r, Tensor) or not isinstance(d, Tensor):
            continue
        if id(r) in nondiff or r.dtype.kind not in "fc":
            raise GradcliError(  # (PyTorch's words, spaces as they are)
                f"Function's jvp returned a gradient at position {k}, but  the corresponding "
                "forward output is not a differentiable Tensor.You should return None at that "
                "position instead.",
                hint="return None from jvp for an integer output or one marked non-differentiable",
            )
        if id(r) in marked:
            # an input changed in place (ctx.mark_dirty): its tangent too, and returned as-is
            i = next((k for k, t in enumerate(inputs) if t is r), None)
            if i is None or given[i] is None:
                continue
            if d._version == versions[i]:
                raise GradcliError(
                    "An inplace custom Function is not modifying the forward mode gradients "
                    "inplace. If the forward is modifying an input inplace, then the jvp "
                    "function must modify the corresponding gradient inplace.",
                    hint="change the tangent in place in jvp (t.mul_(2)) and return it",
                )
            if d is not given[i]:
                raise GradcliError(
                    "An inplace custom Function is not returning the forward mode gradients "
                    "as-is. If the forward is modifying an input inplace, then the jvp "
                    "function must modify the gradient inplace and return it as-is.",
                    hint="return the tangent jvp received, changed in place",
                )
            continue
        if not (any(r is t for t in inputs) or r._base is not None):
            continue  # a fresh tensor: any tangent will do
        i = next((k for k, t in enumerate(inputs) if root(t) is root(r)), None)
        if i is None or given[i] is None:
            continue  # a view of a tensor made inside forward, or of an input with no tangent
        if d._base is None:
            raise GradcliError(
                "A custom Function's forward is returning a view (or an input as-is) but the "
                "jvp is not returning a view.",
                hint="return a view of the input's tangent from jvp (t.view_as(t)), or clone "
                "the output in forward",
            )
        expected = given[i]
        if d._base is not root(expected):
            # PyTorch keeps a tangent that is a view as it is only when it spans its whole
            # base (make_dual copies another): its message says which it checked
            kept_view = expected._base is not None and expected._base.numel() == expected.numel()
            what = "the same base as the given grad input" if kept_view else "the given grad input"
            raise GradcliError(
                f"A custom Function is returning a view but the jvp is not returning a view of "
                f"{what}.",
                hint="return a view of the tangent jvp received for that input",
            )


def _unrecorded(r: Tensor, inputs: Sequence[Tensor]) -> Tensor:
    """An output of a Function call that records no node (grad mode off, or no tensor input
    requiring grad), as PyTorch returns it: an input as a new tensor sharing its data (outside
    the graph); another tensor that requires grad (made outside forward) detached in place
    and returned itself, unless it is a view (returned as it is); a fresh one as it is."""
    if any(r is t for t in inputs):
        return Tensor(r.data)
    if (r.requires_grad or r.node is not None) and r._base is None:
        return r.detach_()
    return r


def _made_view(result: Tensor, inputs: Sequence[Tensor]) -> bool:
    """Whether PyTorch makes this output of a Function a view: an input returned as-is (not
    marked dirty), or a view of a tensor made inside forward."""
    return any(result is t for t in inputs) or result._base is not None


def _dirty_output(
    name: str, label: str | None, inputs: Sequence[Tensor], x: Tensor, vjp: Callable[..., Any]
) -> Tensor:
    """`ctx.mark_dirty(x)` and forward returned x, changed in place: as PyTorch, the output is
    x itself, its version counted once more, and (when gradients flow) its history rebased
    onto the Function's node, whose input is x as it was before."""
    from ..core.inplace import inplace

    if not (grad_enabled() and any(t.requires_grad for t in inputs)):
        from ..core.inplace import write

        write(x, x.data.copy())
        return x

    if x.requires_grad and x.node is None:
        raise GradcliError(
            "a leaf Variable that requires grad has been used in an in-place operation.",
            hint="mark a tensor computed from the leaf dirty (a clone), not the leaf itself",
        )

    def compute(old: Tensor) -> Tensor:
        out = Tensor(x.data.copy())
        out.requires_grad = True
        before = tuple(old if t is x else t for t in inputs)
        op = _custom_op(name, label, out.data)
        out.node = _internal(Node(op, before, {"_vjp": vjp, "_name": name}, out, label))
        return out

    return inplace(x, compute)


def _custom_op(name: str, label: str | None, data: Any) -> Op:
    return Op(
        name=name,
        forward=lambda *a: data,
        vjp=_custom_vjp,
        torch_name=label or f"{name}Backward",
        formula="user-defined",
        kind="custom",
    )


def _several(
    name: str,
    inputs: Sequence[Tensor],
    result: tuple,
    vjp: Callable[..., Any],
    label: str | None,
    non_differentiable: Callable[[], Sequence[Any]] | None,
    materialize: Callable[[], bool] | None,
    jvp: Callable[[list[Tensor]], Any] | None = None,
) -> tuple:
    """A Function with several outputs. The engine's nodes have one output each, so the
    differentiable outputs are recorded as one node computing them all, packed flat, and one
    node per output taking its part: a pass adds each output's gradient into its part, and
    the user's backward gets them unpacked, one per output."""
    if not (grad_enabled() and any(t.requires_grad for t in inputs)):
        return tuple(_unrecorded(r, inputs) if isinstance(r, Tensor) else r for r in result)
    marked = {id(t) for t in non_differentiable()} if non_differentiable else set()
    outs = [
        (
            Tensor(r.data)
            if (r.node is not None or r.requires_grad or any(r is t for t in inputs))
            and not (NOGRAD_CUSTOM and r in NOGRAD_CUSTOM)  # (kept as it is: see above)
            else r
        )
        if isinstance(r, Tensor)
        else r
        for r in result
    ]
    diff = [
        i
        for i, (r, o) in enumerate(zip(result, outs))
        if isinstance(o, Tensor) and o.dtype.kind == "f" and id(r) not in marked
    ]
    if not (grad_enabled() and diff and any(t.requires_grad for t in inputs)):
        return tuple(outs)
    dtype = np.result_type(*[outs[i].dtype for i in diff])
    packed_data = np.concatenate([outs[i].data.astype(dtype).ravel() for i in diff])
    touched: set[int] = set()
    mat = materialize() if materialize is not None else True

    def unpacked_vjp(gp: Tensor) -> Any:
        grads: list[Any] = []
        off = 0
        for i, o in enumerate(outs):
            if i in diff:
                n = o.data.size
                if mat or i in touched:
                    part = apply(index, gp, idx=(slice(off, off + n),))
                    grads.append(reshape_to(part, o.shape))
                else:
                    grads.append(None)
                off += n
            elif isinstance(o, Tensor) and mat:
                grads.append(Tensor(np.zeros(o.shape, dtype=o.dtype)))
            else:
                grads.append(None)
        touched.clear()
        return vjp(*grads)

    unpacked_vjp.__dict__.update(getattr(vjp, "__dict__", {}))  # (its ctx, its raw backward)
    if jvp is not None:

        def packed_jvp(tangents: list[Tensor]) -> Tensor:
            got = jvp(tangents)
            gots = got if isinstance(got, tuple) else (got,)
            if len(gots) != len(outs):
                raise GradcliError(
                    f"{name}.jvp returned {len(gots)} tangents for {len(outs)} outputs",
                    hint="return one tangent per output of forward, in order",
                )
            parts = [_tangent_checked(gots[i], outs[i]).data.astype(dtype).ravel() for i in diff]
            return Tensor(np.concatenate(parts))

        unpacked_vjp.user_jvp = packed_jvp  # type: ignore[attr-defined]
    packed = Tensor(packed_data)
    packed.requires_grad = True
    packed.node = _internal(
        Node(
            _custom_op(name, label, packed_data),
            tuple(inputs),
            {"_vjp": unpacked_vjp, "_name": name},
            packed,
            label,
        )
    )
    output_op = _OUTPUT.replace(name=name)
    layout = []
    off = 0
    for i in diff:
        layout.append((i, off, outs[i].data.size, outs[i].shape))
        off += outs[i].data.size
    PACKED_OUTPUTS[packed.node] = (len(outs), tuple(layout), touched)
    off = 0
    for i in diff:
        o = outs[i]
        n = o.data.size
        part = apply(
            output_op,
            packed,
            off=off,
            n=n,
            shape=o.shape,
            dtype=o.dtype,
            k=i,
            touched=touched,
            label=label or f"{name}Backward",
        )
        if part.node is not None and isinstance(result[i], Tensor):
            if _made_view(result[i], inputs):
                mark_custom_view(part if o is not result[i] else o, i, name, len(diff) > 1)
        if o is result[i] and part.node is not None:
            # The very tensor forward made becomes the graph's output (a ctx.save_for_backward
            # of it in forward or setup_context saves the output: differentiable again); one
            # returned twice is the later output, as in PyTorch.
            o.requires_grad = True
            o.node = part.node
            part.node.out = o
        else:
            outs[i] = part
        off += n
    link_siblings([outs[i] for i in diff])  # (PyTorch's one node runs their hooks together)
    return tuple(outs)


def _output_vjp(
    g: Tensor,
    out: Tensor,
    p: Tensor,
    off: int,
    n: int,
    shape: Any,
    dtype: Any,
    k: int,
    touched: set,
) -> tuple:
    touched.add(k)
    nb = g.ndim - out.ndim
    flat = reshape_to(g, g.shape[:nb] + (n,))
    return (apply(index_put, flat, idx=(slice(off, off + n),), shape=p.shape, out_ndim=1),)


# One output of a Function with several: its part of the packed outputs (a copy, not a view).
_OUTPUT = Op(
    name="custom_output",
    forward=lambda p, off, n, shape, dtype, k, touched: (
        p[off : off + n].reshape(shape).astype(dtype, copy=True)
    ),
    vjp=_output_vjp,
    torch_name="custom_output",
    formula="g placed at the output's part",
    kind="custom",
    saves=False,
    part=True,
)
