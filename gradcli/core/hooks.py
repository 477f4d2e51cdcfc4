"""What the kernel reports as it works, to whoever watches: an observer the sandbox installs.

The kernel calls `observer.tick()` for every operation it runs (forward or in a backward
pass), `observer.node(op)` for every operation it records (with its record),
`observer.allocated(nbytes)` for every tensor of REPORT_BYTES or more, and
`observer.check_clock()` between the pieces of a step it splits because one NumPy call would
run for seconds. It knows nothing of what the observer does with that: the interpreter
installs the run budget of `base.limits` (time, memory, graph size), which raises a
`LimitError` when a run spends too much. Without an observer nothing is counted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

REPORT_BYTES = 1 << 20  # tensors at least this large are reported when they are made


class Observer:
    """The observer protocol; this one does nothing."""

    def tick(self) -> None:
        pass

    def node(self, op: Any = None) -> None:
        """One operation recorded in the graph, by the record `op`."""

    def allocated(self, nbytes: int) -> None:
        pass

    def check_clock(self) -> None:
        """Between two pieces of one long step (an integer matmul in chunks): the clock read
        now, not every so many ticks."""


observer: Observer = Observer()


def _as_is(value: Any) -> Any:
    return value


# A value of the program given as a hook (an instance of a program's class with `__call__`),
# as a Python callable; installed by the interpreter (`lang.classes`).
as_callable: Callable[[Any], Any] = _as_is


def _no_names(value: Any) -> None:
    return None


# PyTorch's (__name__, __qualname__) of a function the program reached through gradcli's
# namespaces (F.softmax is gradcli's f_softmax: its Python name is not PyTorch's), or None;
# installed by the interpreter (`lang.classes`, from `lang.torch_reprs`).
python_names: Callable[[Any], tuple[str, str] | None] = _no_names

# Where warnings go (PyTorch's UserWarnings: the run prints them on stderr); None: dropped.
# The third argument: the warning is given once per run (PyTorch's TORCH_WARN_ONCE).
warning_sink: Callable[[str, str | None, bool], None] | None = None


def _nothing() -> None:
    pass


# torch.autograd.graph.saved_tensors_hooks (`surface.saved_hooks`): the (pack, unpack) pair in
# force (None: none); the nodes recorded under it whose saved tensors are not packed yet, each
# with its output (kept alive until packed) and the pair; the surface's function that packs
# them (called before a backward pass and between statements), and the one that unpacks a
# node's saved tensors when a backward pass reaches it: `(inputs, out)` for its rule.
saved_hooks: Any = None
saved_pending: list = []
saved_flush: Callable[[], None] = _nothing
saved_unpack: Callable[[Any], tuple[list, Any]] | None = None


# torch.autograd.graph.allow_mutation_on_saved_tensors (`surface.mutation`): while its block
# runs, `node_made(node)` is called for each node recorded (None otherwise), and
# `before_write(t, address)` before a change in place writes t's storage (`address`: of the
# first element the program's tensor or view shows, when it is not t's own).
node_made: Callable[[Any], None] | None = None
before_write: Callable[..., None] | None = None

# `core.inplace` sets this when it first marks a view PyTorch forbids changing in place (an
# output of `unbind`, of a custom Function): `view_made(out, src)` makes `out`, a view of such
# a `src`, one too. (`core.op` calls it; importing `core.inplace` there would be a cycle.)
view_made: Callable[[Any, Any], None] | None = None


# How many times `afford` refused a slow exact path in this process, and whether it refuses
# every one for now (`fast_paths`): gradcheck's reentrancy check runs a backward twice and
# compares the bits, which differ when the budget ran out between (or within) the two runs.
refusals = 0
_fast_only = False


def afford(account: str, work: int, cap: int, message: str, hint: str) -> bool:
    """Whether a slow exact path (PyTorch's order of summation mirrored) may spend `work` more
    in this run, within `cap` (the observer keeps the run's account; outside a run, always).
    Past it the caller takes the fast path, and the run says so once (`message`, `hint`)."""
    global refusals
    if _fast_only:
        return False
    spend = getattr(observer, "spend", None)
    if spend is None or spend(account, work, cap):
        return True
    refusals += 1
    warn(message, hint, once=True)
    return False


class fast_paths:  # noqa: N801  (a context manager used as a function)
    """Within it, every slow exact path `afford` guards is refused (the fast order only), so
    that a computation repeated gives the same bits however the run's budgets stand."""

    def __enter__(self) -> None:
        global _fast_only
        self._was = _fast_only
        _fast_only = True

    def __exit__(self, *exc: object) -> None:
        global _fast_only
        _fast_only = self._was


def warn(message: str, hint: str | None = None, once: bool | str = False) -> None:
    """A warning for the user, in PyTorch's words where PyTorch warns, with gradcli's hint;
    `once`: only the first time in a run, as PyTorch's warnings given once per process (a
    string: once for all the warnings given with that key, whatever their text)."""
    if warning_sink is not None:
        warning_sink(message, hint, once)


def install(new: Observer) -> None:
    """Make `new` the kernel's observer (for the rest of the process)."""
    global observer
    observer = new


def _no_carry(*args: Any) -> None:
    """Replaced by `core.dual.carry` when `core.dual` is imported (before any dual level)."""


# `apply` calls it after each op inside a forward-AD dual level (`core.dual`).
carry: Any = _no_carry
# A tensor's forward-AD tangent at the active level, or None (`core.dual.tangent`, set when
# `core.dual` is imported, as `carry`).
tangent: Any = lambda t: None  # noqa: E731
