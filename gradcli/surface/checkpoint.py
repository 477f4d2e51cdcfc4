"""`torch.utils.checkpoint`: checkpoint and checkpoint_sequential, as PyTorch runs them.

PyTorch's checkpointing trades memory for time: the function's intermediate results are not
kept for backward but computed again (the function runs a second time) when backward needs
them. gradcli keeps everything in memory anyway; what a program can see of checkpointing is
mirrored:

* `use_reentrant=True` (PyTorch's default, with its warning when the argument is not given):
  the function runs without recording; its outputs hang from one node,
  `CheckpointFunctionBackward`, whose backward runs the function again (with the generator's
  state of the first run, so dropout draws the same masks) on detached copies of the tensor
  arguments, with gradients on, and backpropagates through that: parameters used inside get
  their `.grad` then; the tensor arguments get theirs through the node. Keyword arguments are
  refused in PyTorch's words; with no argument that requires grad, PyTorch's warning, and the
  outputs do not require grad.
* `use_reentrant=False`: the function runs and records as usual (its outputs show the grad_fn
  of their last operation), and the first time a backward pass reaches one of its operations
  that saved tensors, the function runs again (once per pass, a pass inside the function's own
  first run included, as autograd.grad there unpacks what it saved; the generator's state of the
  first run restored around it), so that what it prints is printed again where PyTorch prints
  it; the gradients are those of the recorded graph (the same numbers PyTorch's recomputation
  gives).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base.errors import GradcliError
from ..core import autograd, hooks
from ..core.graph import ancestors
from ..core.op import peek_seq
from ..core.tensor import Tensor, enable_grad, no_grad, typename
from ..ops.custom import custom_apply
from . import sampling

_WARN = (
    "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. "
    "Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an "
    "exception. use_reentrant=False is recommended, but if you need to preserve the current "
    "default behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants."
)
_WARN_SEQUENTIAL = (
    "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be "
    "passed explicitly. In version 2.9 we will raise an exception if use_reentrant is not "
    "passed. use_reentrant=False is recommended, but if you need to preserve the current "
    "default behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
    "differences between the two variants."
)


def _err(message: str, kind: str = "RuntimeError") -> GradcliError:
    return GradcliError(message).mirror(kind)


def _unexpected(kwargs: dict) -> GradcliError:
    return _err("Unexpected keyword arguments: " + ",".join(kwargs), "ValueError")


class _Rng:
    """The CPU generator's state at the first run, set again around a recomputation (and the
    state of the moment restored after it): torch.random.fork_rng as checkpoint uses it."""

    def __init__(self, preserve: bool):
        self.state = sampling.get_rng_state() if preserve else None

    def run(self, fn: Callable[[], Any]) -> Any:
        if self.state is None:
            return fn()
        now = sampling.get_rng_state()
        sampling.set_rng_state(self.state)
        try:
            return fn()
        finally:
            sampling.set_rng_state(now)


def checkpoint(
    function: Any,
    *args: Any,
    use_reentrant: Any = None,
    context_fn: Any = None,
    determinism_check: Any = "default",
    debug: Any = False,
    early_stop: Any = True,
    **kwargs: Any,
) -> Any:
    if use_reentrant is None:
        hooks.warn(_WARN)
        use_reentrant = True
    preserve = bool(kwargs.pop("preserve_rng_state", True))
    if kwargs and use_reentrant:
        raise _unexpected(kwargs)
    if use_reentrant:
        if context_fn is not None or debug is not False:
            raise _err(
                "Passing `context_fn` or `debug` is only supported when use_reentrant=False.",
                "ValueError",
            )
        return _reentrant(function, preserve, args)
    if context_fn is not None:
        raise GradcliError(
            "checkpoint(context_fn=...) is not supported by gradcli",
            hint="leave context_fn out (selective checkpointing changes only what is kept)",
        )
    return _non_reentrant(function, preserve, args, kwargs)


def _reentrant(function: Any, preserve: bool, args: tuple) -> Any:
    if not any(a.requires_grad for a in args if isinstance(a, Tensor)):
        hooks.warn("None of the inputs have requires_grad=True. Gradients will be None")
    rng = _Rng(preserve)
    tensors = [a for a in args if isinstance(a, Tensor)]

    with no_grad():
        result = function(*args)
    if isinstance(result, list):
        result = tuple(result)
    tensors_out = isinstance(result, Tensor) or (
        isinstance(result, tuple) and result and all(isinstance(t, Tensor) for t in result)
    )
    if not tensors_out:  # a Function's other outputs come back as they are
        return result

    def forward() -> Any:
        return result

    def vjp(*grads: Any) -> tuple:
        if autograd.GRAD_CALL[0] is not None:
            raise _err(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() "
                "or passing an `inputs` parameter to .backward(). To resolve this error, you can "
                "either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument."
            )
        copies = []
        inputs = []
        for a in args:
            if isinstance(a, Tensor):
                d = Tensor(a.data)  # detached: the same values, a leaf of its own
                d.requires_grad = a.requires_grad
                copies.append(d)
                inputs.append(d)
            else:
                inputs.append(a)

        def again() -> Any:
            with enable_grad():
                return function(*inputs)

        outputs = rng.run(again)
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, (tuple, list)):
            raise _err(f"checkpoint(): the function returned a {typename(outputs)} the second time")
        outs, gs = [], []
        for o, g in zip(outputs, grads):
            if isinstance(o, Tensor) and o.requires_grad:
                outs.append(o)
                gs.append(g)
        if not outs:
            raise _err("none of output has requires_grad=True, this checkpoint() is not necessary")
        autograd.backward(outs, gs)
        return tuple(c.grad if c.requires_grad else None for c in copies)

    return custom_apply(
        "CheckpointFunction", tensors, forward, vjp, label="CheckpointFunctionBackward"
    )


def _tensors(value: Any, out: list[Tensor]) -> list[Tensor]:
    if isinstance(value, Tensor):
        out.append(value)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _tensors(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _tensors(v, out)
    return out


# Non-reentrant checkpoints running (a first run or a recomputation): one inside another is
# nested, whose frames PyTorch recomputes in its own way.
_ACTIVE = [0]


def _non_reentrant(function: Any, preserve: bool, args: tuple, kwargs: dict) -> Any:
    rng = _Rng(preserve)
    last_pass = [0]
    recomputing = [False]

    def recompute(grads: Any) -> None:
        # PyTorch runs the function again when a backward pass first unpacks a tensor it saved
        if last_pass[0] == autograd.PASS[1]:
            return None

        def again() -> Any:
            with enable_grad():
                return function(*args, **kwargs)

        last_pass[0] = autograd.PASS[1]
        recomputing[0] = True  # what the recomputation saves is its own (PyTorch's frame)
        _ACTIVE[0] += 1
        try:
            rng.run(again)
        finally:
            recomputing[0] = False
            _ACTIVE[0] -= 1
        return None

    hooked: set[int] = set()
    nested = _ACTIVE[0] > 0
    first_run = [True]

    def inside(grads: Any) -> None:
        if first_run[0]:
            raise GradcliError(
                "a backward pass inside nested non-reentrant checkpoints is not supported by "
                "gradcli",
                hint="checkpoint the outer function only, or take the inner gradient outside "
                "the checkpoint",
            )
        return None

    def hook(n: Any) -> None:
        if id(n) not in hooked:
            hooked.add(id(n))
            n.register_prehook(recompute)

    # A node is hooked when it is recorded: a pass inside the function's own first run
    # (autograd.grad in it) unpacks what the function saved, and PyTorch recomputes then too.
    outer = hooks.node_made

    def made(n: Any) -> None:
        if outer is not None:
            outer(n)
        if n.op.saves and not recomputing[0]:
            if nested:  # PyTorch's nested frames recompute the outer function: not mirrored
                n.register_prehook(inside)
            else:
                hook(n)

    start = peek_seq()
    hooks.node_made = made
    _ACTIVE[0] += 1
    try:
        result = function(*args, **kwargs)
    finally:
        hooks.node_made = outer
        _ACTIVE[0] -= 1
        first_run[0] = False
    stop = peek_seq()
    outputs = [t for t in _tensors(result, []) if t.node is not None]
    for n in ancestors(outputs) if outputs else ():
        if start <= n.seq < stop and n.op.saves:  # (custom Functions' nodes among them)
            hook(n)
    return result


def checkpoint_sequential(
    functions: list[Any], segments: Any, input: Any, use_reentrant: Any = None, **kwargs: Any
) -> Any:  # noqa: A002 - PyTorch's name
    """`functions`: the modules in order (the interpreter lists a Sequential's children)."""
    if use_reentrant is None:
        hooks.warn(_WARN_SEQUENTIAL)
        use_reentrant = True
    preserve = kwargs.pop("preserve_rng_state", True)
    if kwargs:
        raise _unexpected(kwargs)
    if isinstance(segments, bool) or not isinstance(segments, int):
        raise _err(
            f"unsupported operand type(s) for //: 'int' and '{typename(segments)}'", "TypeError"
        )
    if segments == 0:
        raise _err("integer division or modulo by zero", "ZeroDivisionError")

    def run(first: int, last: int) -> Callable[[Any], Any]:
        def forward(x: Any) -> Any:
            for j in range(first, last + 1):
                hooks.observer.tick()
                x = functions[j](x)
            return x

        return forward

    size = len(functions) // segments
    if size == 0:  # Python's range() with a step of 0, as PyTorch reaches it
        raise _err("range() arg 3 must not be zero", "ValueError")
    end = -1
    for start in range(0, size * (segments - 1), size):
        end = start + size - 1
        input = checkpoint(
            run(start, end), input, use_reentrant=use_reentrant, preserve_rng_state=preserve
        )
    return run(end + 1, len(functions) - 1)(input)
