"""The library API the CLI is a thin layer over: load a program, run it, take its gradients.

Data flows one way: text -> parse -> run (the graph) -> backward(upstream) -> results. Every
function here returns plain data (NumPy arrays, the records of `results`); rendering is `cli`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..base import limits
from ..base.errors import GradcliError, LimitError, NotSupported
from ..base.record import Record
from ..core import autograd
from ..core.autograd import run_backward
from ..core.graph import ancestors
from ..core.op import Node
from ..core.tensor import Tensor
from ..lang.program import Program, Run, parse
from .results import BackwardResult, TensorInfo, TraceStep


def load(
    text: str,
    name: str = "<program>",
    *,
    overrides: dict[str, np.ndarray] | None = None,
    dtype: Any = None,
    seed: int = 0,
    echo: Any = None,
) -> Run:
    """Parse and execute a program. `overrides` replaces leaf tensors' data (`--set`)."""
    return parse(text, name).run(overrides=overrides, dtype=dtype, seed=seed, echo=echo)


def as_program(program: str | Program | Run) -> Program:
    """The parsed program of program text, a `Program` or a `Run`."""
    if isinstance(program, Run):
        return program.program
    if isinstance(program, Program):
        return program
    return parse(program)


def run(program: str | Program | Run, **kw: Any) -> Run:
    """Execute a program (text or parsed) and return what it leaves behind."""
    if isinstance(program, Run):
        return program
    if isinstance(program, Program):
        return program.run(**kw)
    return load(program, **kw)


def resolve_of(r: Run, of: str | None) -> tuple[str, Tensor]:
    """The output to differentiate: `of`, or the last assigned tensor that requires grad
    (a program often ends with bookkeeping, like the seed's `jacobian = torch.zeros(...)`)."""
    if of is None:
        for name in reversed(r.assigned_order):
            if r.tensors[name].requires_grad:
                _real(name, r.tensors[name], "output")
                return name, r.tensors[name]
        raise GradcliError(
            "the program computes no tensor that requires grad, so there is no output to "
            "differentiate",
            hint="create the inputs with requires_grad=True, e.g. "
            "`x = torch.tensor([1., 2.], requires_grad=True)`",
        )
    t = r.tensor(of)
    if not t.requires_grad:
        raise GradcliError(
            f"`{of}` does not require grad: nothing it is computed from requires grad",
            found=f"`{of}` (a constant)",
            expected="an output computed from tensors created with requires_grad=True",
            hint="create the inputs with requires_grad=True, or choose another output with --of",
        )
    _real(of, t, "output")
    return of, t


def default_note(r: Run, asked: str | None, chosen: str) -> str | None:
    """What the default of `--of` chose, when it is not the last assigned tensor (the one
    place that says so, for every command)."""
    if asked is None and r.last_assigned not in (None, chosen):
        return (
            f"the last assigned tensor, `{r.last_assigned}`, does not require grad: using "
            f"`{chosen}`, the last one that does (choose with --of)"
        )
    return None


def resolve_wrt(r: Run, wrt: list[str] | None) -> list[tuple[str, Tensor]]:
    """The inputs: `wrt` (any named tensors that require grad), or every leaf that does."""
    names = list(wrt) if wrt else r.leaves()
    if not names:
        raise GradcliError(
            "no tensor in the program requires grad",
            hint="create an input with requires_grad=True, or name one with --wrt",
        )
    out = []
    for n in names:
        t = r.tensor(n)
        if not t.requires_grad:
            raise GradcliError(
                f"`{n}` does not require grad, so it has no gradient",
                hint="create it with requires_grad=True; tensors that require grad: "
                + ", ".join(r.leaves() or ["none"]),
            )
        _real(n, t, "input")
        out.append((n, t))
    return out


def _real(name: str, t: Tensor, what: str) -> None:
    """The analyses differentiate real tensors: a complex input or output is refused."""
    if t.dtype.kind == "c":
        raise NotSupported(
            f"`{name}` is a complex tensor: the analysis commands (backward, jacobian, hessian, "
            f"check) differentiate real tensors, and a complex {what} is not supported yet",
            found=str(t.dtype),
            hint="differentiate a real function of it (z.abs(), z.real), or run the program "
            "with `gradcli run` and call backward() / torch.autograd.grad in it",
        )


def implicit_gradient(of: str, t: Tensor) -> np.ndarray:
    if t.data.size != 1:
        raise GradcliError(
            "grad can be implicitly created only for scalar outputs",
            found=f"`{of}` has shape {list(t.shape)} ({t.data.size} elements)",
            hint="give the upstream gradient with --grad (e.g. --grad ones, --grad onehot:0, "
            f"or {t.data.size} comma-separated numbers), or use `gradcli jacobian`",
        )
    return np.ones(t.shape, dtype=t.dtype)


def _label(t: Tensor, names: dict[int, str]) -> str:
    if id(t) in names:
        return names[id(t)]
    if t.node is not None:
        return f"({t.node.name()} #{t.node.seq})"
    return "(constant)" if not t.requires_grad else "(leaf)"


def backward(
    program: Any,
    of: Any = None,
    wrt: list[str] | None = None,
    grad: Any = None,
    *,
    trace: bool = False,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    inputs: Any = None,
) -> BackwardResult | None:
    """One backward pass from `of` with upstream gradient `grad` (default: ones for a
    one-element output). Returns d(<grad, of>)/d(wrt) for each `wrt`, as arrays.

    >>> r = backward("x = tensor([1., 2.], requires_grad=True)\\ny = x * x", grad=[1, 0])
    >>> r.grads["x"].tolist()
    [2.0, 0.0]

    The Tensor form is `torch.autograd.backward`: `backward(y)` or `backward(y, g)` (or
    `backward([y1, y2], [g1, g2])`) accumulates into the `.grad` of the leaves (or of
    `inputs`), with `retain_graph` / `create_graph` as in PyTorch, and returns None.
    """
    if isinstance(program, Tensor) or (
        isinstance(program, (list, tuple)) and program and isinstance(program[0], Tensor)
    ):
        if wrt is not None or trace:
            raise GradcliError(
                "backward of tensors takes the gradient and inputs=, not wrt= or trace=",
                hint="wrt and trace name a program's tensors: backward(program, of, wrt)",
            )
        gradient = grad if grad is not None else of
        autograd.backward(
            program, gradient, retain_graph=retain_graph, create_graph=create_graph, inputs=inputs
        )
        return None
    r = run(program)
    of, out = resolve_of(r, of)
    targets = resolve_wrt(r, wrt)
    if grad is None:
        g = implicit_gradient(of, out)
    else:
        g = np.asarray(grad.data if isinstance(grad, Tensor) else grad, dtype=out.dtype)
        if g.shape != out.shape:
            if g.size == out.data.size:
                g = g.reshape(out.shape)
            else:
                raise GradcliError(
                    f"the upstream gradient has {g.size} values but `{of}` has shape "
                    f"{list(out.shape)} ({out.data.size} elements)"
                )
    steps: list[TraceStep] = []
    names = {id(t): n for n, t in r.tensors.items()}
    if trace:
        # Unnamed intermediates by the ids `gradcli graph` shows them with (`#3`).
        from .graph import build

        for v in build(r, out):
            if v.kind == "op" and not v.label and v.tensor is not None:
                names.setdefault(id(v.tensor), f"#{v.id}")
    kept = [0]  # numbers the trace holds: it is written as text, budgeted as it grows

    def record(node: Node, gin: Tensor, gs: tuple) -> None:
        kept[0] += int(np.size(gin.data)) + sum(
            int(np.size(getattr(gi, "data", gi))) for gi in gs if gi is not None
        )
        check_text(kept[0], "the trace", hint="trace a smaller program, or leave out --trace")
        steps.append(
            TraceStep(
                node=node.name(),
                output=_label(node.out, names),
                received=np.array(gin.data),
                passed=[
                    (
                        _label(t, names),
                        None
                        if gi is None or not t.requires_grad
                        else np.array(getattr(gi, "data", gi)),
                    )
                    for t, gi in zip(node.inputs, gs)
                ],
            )
        )

    fresh: set[int] = set()
    got = run_backward(
        [out],
        [Tensor(g.copy())],
        capture=[t for _, t in targets],
        check_freed=False,
        trace=record if trace else None,
        fresh=fresh,
    )
    grads: dict[str, np.ndarray] = {}
    unused: list[str] = []
    for n, t in targets:
        if id(t) in got:
            # A copy, unless the pass made this array for this leaf (a sum no one else holds).
            a = got[id(t)][1].data
            grads[n] = a if id(t) in fresh and type(a) is np.ndarray else np.array(a)
        else:
            grads[n] = np.zeros(t.shape, dtype=t.dtype)
            unused.append(n)
    return BackwardResult(of, tuple(out.shape), g, grads, unused, steps)


def forward(
    program: str | Program | Run, names: list[str] | None = None, *, text: bool = False
) -> list[TensorInfo]:
    """The values of the program's named tensors (all of them, or `names`). `text`: they are
    to be written as text (`check_text`)."""
    r = run(program)
    chosen = names or list(r.assigned_order)
    if text:
        check_text(
            sum(int(r.tensor(n).data.size) for n in chosen),
            "the tensors' values",
            hint="choose fewer tensors with --of",
        )
    out = []
    for n in chosen:
        t = r.tensor(n)
        out.append(
            TensorInfo(
                n,
                np.array(t.data),
                t.requires_grad,
                None if t.node is None else t.node.name(),
                t.node is None,
            )
        )
    return out


# --- the output and the inputs of a Jacobian, resolved once -----------------------------


class Setup(Record):
    """A program's run, its output and the inputs a derivative is taken with respect to."""

    _fields = ("run", "of", "out", "targets", "seed", "dtype", "_graph")
    _defaults = {"_graph": None}
    run: Run | None
    of: str
    out: Tensor
    targets: list[tuple[str, Tensor]]
    seed: int
    dtype: Any
    _graph: list[Node] | None

    def graph(self) -> list[Node]:
        """The nodes `out` depends on (walked once, before any pruning)."""
        if self._graph is None:
            self._graph = ancestors([self.out])
        return self._graph


def setup(
    program: str | Program | Run,
    of: str | None,
    wrt: Sequence[str] | str | None,
    seed: int,
    dtype: Any,
    overrides: dict[str, Any] | None,
) -> Setup:
    if isinstance(program, Run):
        r = program
    else:
        r = run(program, seed=seed, dtype=dtype, overrides=overrides)
    of_name, out = resolve_of(r, of)
    if isinstance(wrt, str):
        wrt = [wrt]
    names = list(dict.fromkeys(wrt)) if wrt else None
    targets = resolve_wrt(r, names)
    for n, t in targets:
        if t.dtype.kind != "f":
            raise GradcliError(f"`{n}` is not a floating-point tensor", found=str(t.dtype))
    return Setup(r, of_name, out, targets, seed, dtype)


def check_entries(rows: int, cols: int, what: str) -> None:
    """Refuse, before any work, a matrix over the `jacobian_entries` limit."""
    limits.JACOBIAN_ENTRIES.check(
        rows * cols, f"the number of {what} entries ({rows:,} x {cols:,})"
    )


def check_text(numbers: int, what: str, hint: str | None = None) -> None:
    """Refuse, before any work, an answer of more numbers than `output_numbers` to be written
    as text: text of millions of numbers takes longer to write than to compute (and as JSON,
    gigabytes of memory). NPY has no such limit."""
    limit = limits.OUTPUT_NUMBERS
    if numbers > limit.value:
        raise LimitError(
            f"{what} has {numbers:,} numbers to write as text, over the limit of {limit.value:,}",
            found=f"{numbers:,}",
            expected=f"at most {limit.value:,} ({limit.name})",
            hint=(hint or "write it as NPY (--format npy, or -o FILE.npy)")
            + f"; or raise the limit with the environment variable {limit.env}=N",
            limit=limit.name,
        )


def target_sizes(targets: Sequence[tuple[str, Tensor]]) -> list[int]:
    return [int(t.data.size) for _, t in targets]
