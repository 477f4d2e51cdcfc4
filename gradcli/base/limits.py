"""Named safety limits. Each can be raised with an environment variable `GRADCLI_<NAME>`.

A program is untrusted text: these keep a hostile or mistaken one from hanging the machine or
exhausting its memory. Each is checked before the work it guards is done, except the three
per-run budgets of `RunBudget` (time, memory growth, graph size), which a running program
spends as it goes and which are checked as it spends them.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Callable

from .errors import LimitError
from .record import Record

# Limits that may be set to a fraction (a test harness bounds its hostile cases at 0.5 s: a
# whole second each, for the ~200 that run into it, was a minute and a half of CI).
FRACTIONAL = frozenset({"time_seconds"})
SMALLEST_FRACTION = 0.05


def _fraction(raw: str) -> float | None:
    """The number of seconds written in `raw` (such as 0.3; at least `SMALLEST_FRACTION`), or
    None when it is not a finite positive number."""
    try:
        value = float(raw)
    except ValueError:
        return None
    if not 0 < value < float("inf"):
        return None
    return max(SMALLEST_FRACTION, value)


class Limit(Record):
    _fields = ("name", "default", "what")
    name: str
    default: int
    what: str

    def __post_init__(self) -> None:
        self._cached: int | None = None
        self._env = f"GRADCLI_{self.name.upper()}"
        self._key = self._env.encode()

    @property
    def env(self) -> str:
        return self._env

    # While a program runs, its limits are read once, when the run starts (`RunBudget`).

    @property
    def value(self) -> int:
        cached = self._cached
        if cached is not None:
            return cached
        return self.read()

    def read(self) -> int:
        # Read on every check (tests and users may change the environment), but through the
        # environment's own bytes dict where there is one: os.environ.get encodes and decodes
        # on each call, and limits are checked for every operation.
        data = getattr(os.environ, "_data", None)
        if isinstance(data, dict) and os.name == "posix":
            rawb = data.get(self._key)
            raw = rawb.decode(errors="replace") if rawb else None
        else:
            raw = os.environ.get(self._env)
        if raw:
            try:
                return max(1, int(raw))
            except ValueError:
                if self.name in FRACTIONAL:
                    seconds = _fraction(raw)
                    if seconds is not None:
                        return seconds  # type: ignore[return-value]
                # A limit the user meant to set is never replaced by the default in silence.
                fractional = self.name in FRACTIONAL
                raise LimitError(
                    f"the environment variable {self._env} is not a "
                    + ("number of seconds" if fractional else "whole number"),
                    found=repr(raw[:40]),
                    expected="a number, such as 20 or 0.5"
                    if fractional
                    else "a whole number, such as 20",
                    hint=f"set {self._env}=N, or unset it for the default {self.default:,}",
                ) from None
        return self.default

    def check(self, amount: int, what: str | None = None) -> None:
        if amount > self.value:
            raise LimitError(
                f"{what or self.what} is {amount:,}, over the limit of {self.value:,}",
                limit=self.name,
                found=f"{amount:,}",
                expected=f"at most {self.value:,} ({self.name})",
                hint=f"raise it with the environment variable {self.env}=N if you need more",
            )


SOURCE_BYTES = Limit("source_bytes", 1_000_000, "program size in bytes")
NESTING = Limit("nesting", 100, "expression nesting depth")
TENSOR_ELEMENTS = Limit("tensor_elements", 10_000_000, "number of elements in a tensor")
LIST_ITEMS = Limit("list_items", 1_000_000, "number of items in a Python list or tuple value")
STRING_CHARS = Limit("string_chars", 1_000_000, "length of a string value")
OUTPUT_BYTES = Limit("output_bytes", 10_000_000, "bytes a program may print")
LOOP_ITERATIONS = Limit("loop_iterations", 1_000_000, "total loop iterations")
GRAPH_NODES = Limit("graph_nodes", 1_000_000, "number of recorded operations a run holds at once")
# 60: a pasted training loop of thousands of steps takes tens of seconds (PyTorch's own too);
# the limit is there so that nothing hangs, not to cut real programs short.
TIME_SECONDS = Limit("time_seconds", 60, "seconds of CPU time a program may use")
# 700: the process (the interpreter, NumPy: about 40 MB) plus what a program may add plus what
# one operation allocates past the last check (its temporaries, up to a few hundred MB) stays
# under 1 GiB.
MEMORY_MB = Limit("memory_mb", 700, "megabytes of memory a program may add while it runs")
JACOBIAN_ENTRIES = Limit("jacobian_entries", 25_000_000, "number of Jacobian entries")
OUTPUT_NUMBERS = Limit(
    "output_numbers", 2_000_000, "numbers a command may write as text (plain, CSV, JSON, tables)"
)
SYMPY_ELEMENTS = Limit("sympy_elements", 400, "number of tensor elements for sympy")
SYMPY_EXPRESSION = Limit(
    "sympy_expression",
    200_000,
    "size of the sympy expressions (an upper bound on the tree size of one element's formula)",
)
SYMPY_SECONDS = Limit("sympy_seconds", 8, "seconds sympy may take in one command")
INT_BITS = Limit("int_bits", 256, "size of an integer in bits")
CALL_DEPTH = Limit("call_depth", 50, "depth of user function calls")
LINALG_WORK = Limit(
    "linalg_work",
    300_000_000,
    "work of a matrix decomposition or inverse (m * n * min(m, n) per matrix, times the batch)",
)
MULTIPLY_ADDS = Limit(
    "multiply_adds",
    5_000_000_000,
    "multiply-adds of one convolution, window elements of one pooling",
)
# Not a safety limit but a speed budget: gradcli sums float32 convolutions in PyTorch's
# (oneDNN's, MKL's) order one fused multiply-add at a time in NumPy, ~60 million a second here
# (~20x the float64 sum). Past it, a run's convs are summed in float64 and rounded once (said
# once on stderr); raising it keeps PyTorch's last digits longer, under the time limit.
CONV32_WORK = Limit(
    "conv32_work",
    1 << 28,
    "multiply-adds of float32 convolutions (forwards and gradients) a run sums in PyTorch's order",
)

ALL = [
    SOURCE_BYTES,
    NESTING,
    TENSOR_ELEMENTS,
    LIST_ITEMS,
    STRING_CHARS,
    OUTPUT_BYTES,
    LOOP_ITERATIONS,
    GRAPH_NODES,
    TIME_SECONDS,
    MEMORY_MB,
    JACOBIAN_ENTRIES,
    OUTPUT_NUMBERS,
    SYMPY_ELEMENTS,
    SYMPY_EXPRESSION,
    SYMPY_SECONDS,
    INT_BITS,
    CALL_DEPTH,
    LINALG_WORK,
    MULTIPLY_ADDS,
    CONV32_WORK,
]


# --- per-run budgets ------------------------------------------------------------------------


# /proc/self/statm, opened once per process: (the pid that opened it, its descriptor, the page
# size). Opening it with `open()` took 100 µs, a fifth of a small program's run; a read of an
# open descriptor takes a few. A forked child opens its own (the descriptor it inherits reads
# its parent's).
_STATM: list = [None, -1, 0]


def check_parameters(count: int, what: str, itemsize: int = 8) -> None:
    """All the parameters of a module about to be made (`count` elements of `itemsize` bytes;
    8, float64's, where the dtype is not known yet), against the memory a program may take,
    before any is drawn (each one is a tensor, checked against `tensor_elements`)."""
    MEMORY_MB.check(
        -(-count * itemsize // (1 << 20)), f"the memory the parameters of {what} take, in MB,"
    )


def _statm_resident() -> int:
    pid = os.getpid()
    if _STATM[0] != pid:
        fd = os.open("/proc/self/statm", os.O_RDONLY)  # not inherited by a child process
        if _STATM[1] >= 0:
            try:
                os.close(_STATM[1])
            except OSError:
                pass
        _STATM[:] = [pid, fd, os.sysconf("SC_PAGE_SIZE")]
    return int(os.pread(_STATM[1], 256, 0).split()[1]) * _STATM[2]


def _rss_bytes() -> int | None:
    """The process's resident memory now (Linux), or its peak (elsewhere), or None."""
    try:
        return _statm_resident()
    except (OSError, ValueError, IndexError, AttributeError):
        _STATM[0] = None  # opened again next time
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024
    except Exception:  # pragma: no cover - no way to measure: no memory budget
        return None


class RunBudget:
    """What one run of a program may spend: CPU time (`TIME_SECONDS`, the process's: a loaded
    machine does not shorten a program's allowance; with a wall-clock backstop at
    `WALL_FACTOR` times it), memory growth (`MEMORY_MB`) and recorded operations
    (`GRAPH_NODES`).

    `Runtime.execute` (lang) opens it (`with BUDGET.run():`), and the CLI opens it around a whole
    command (a run inside it then spends the command's budget); while it is open, the interpreter
    calls `tick()` for every statement and loop iteration, and the kernel, which the interpreter
    has it watch (`core.hooks`), calls `node()` for every recorded operation, `tick()` for every
    operation and `allocated()` for every tensor of 1 MiB or more. Outside a run (library code
    building graphs directly) nothing is counted. The checks are cheap: a clock read per tick,
    the resident size of the process at most every 20 ms or after a large allocation.
    """

    MEMORY_EVERY = 0.02  # seconds between two memory checks
    WALL_FACTOR = 3  # the wall-clock backstop, in multiples of the CPU time allowed
    CLOCK_EVERY = 16  # ticks between two clock reads
    BIG = 1 << 20  # bytes: a tensor this large checks memory at once

    def __init__(self) -> None:
        self.active = False
        self.depth = 0
        self.nodes = 0
        self.node_limit = GRAPH_NODES.default
        self.deadline = 0.0  # of the process's CPU time (`time.process_time`)
        self.wall_deadline = 0.0  # of the wall clock (`time.monotonic`)
        self.seconds = TIME_SECONDS.default
        self.rss0: int | None = None
        self.memory_limit = 0
        self.collect_at = 0  # bytes of growth at which `check_memory` collects garbage
        self.next_memory = 0.0
        self.countdown = 0
        # How many operations recorded in this run are alive, and the mark of a run's start
        # they are counted from (set by the kernel: `core.op.live_nodes`, `node_mark`).
        self.live_nodes: Callable[[], int] | None = None
        self.mark_nodes: Callable[[], None] | None = None
        # Work the kernels' exact-but-slow paths spent in this run, by name (see `spend`).
        self.spent: dict[str, int] = {}

    def spend(self, name: str, work: int, cap: int) -> bool:
        """Whether a slow exact path (`name`) may do `work` more in this run, within `cap`
        (counted when it may). Outside a run: always."""
        if not self.active:
            return True
        used = self.spent.get(name, 0) + work
        if used > cap:
            return False
        self.spent[name] = used
        return True

    def run(self) -> RunBudget:
        return self

    def __enter__(self) -> RunBudget:
        self.depth += 1
        if self.depth == 1:
            now = time.monotonic()
            # The environment's bytes dict looked up once for all the limits (`read` finds it
            # for each): a limit that is not set is its default, one that is set is read.
            data = getattr(os.environ, "_data", None)
            fast = isinstance(data, dict) and os.name == "posix"
            for limit in ALL:
                limit._cached = None
                if fast and not data.get(limit._key):  # type: ignore[union-attr]
                    limit._cached = limit.default
                else:
                    limit._cached = limit.read()
            self.active = True
            self.spent = {}
            self.nodes = 0
            self.node_limit = GRAPH_NODES.value
            if self.mark_nodes is not None:
                self.mark_nodes()
            self.seconds = TIME_SECONDS.value
            self.deadline = time.process_time() + self.seconds
            self.wall_deadline = now + self.seconds * self.WALL_FACTOR
            self.memory_limit = MEMORY_MB.value * (1 << 20)
            self.collect_at = self.memory_limit // 2
            self.rss0 = _rss_bytes()
            self.next_memory = now + self.MEMORY_EVERY
            self.countdown = 0
        return self

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1
        if self.depth == 0:
            self.active = False
            for limit in ALL:
                limit._cached = None

    def tick(self) -> None:
        """Check the clock every `CLOCK_EVERY` ticks (and, now and then, the memory)."""
        if not self.active:
            return
        # A tick per statement, iteration and operation: reading the clock on each was 0.7 µs
        # an operation. Slow single steps are large ones, and `allocated` reads the clock.
        self.countdown -= 1
        if self.countdown > 0:
            return
        self.countdown = self.CLOCK_EVERY
        self.check_clock()

    def check_clock(self) -> None:
        if not self.active:
            return
        now = time.monotonic()
        cpu = time.process_time()
        if cpu > self.deadline or now > self.wall_deadline:
            # Spent for good: every later tick reads the clock again (and raises again), so
            # that a caller that caught the error cannot go on unbounded.
            self.countdown = 0
            self._over_time(cpu, now)
        if now > self.next_memory:
            self.next_memory = now + self.MEMORY_EVERY
            self.check_memory()

    def node(self, op: object = None) -> None:
        """One more recorded operation (called before it is made)."""
        if not self.active:
            return
        self.nodes += 1
        if self.nodes > self.node_limit:
            self._count_nodes()

    def _count_nodes(self) -> None:
        """The count passed the limit: what is limited is the graph a run holds, not what it
        made over time (a training loop of 20,000 steps frees each step's graph), so the nodes
        still alive are counted (`live_nodes`, a collection and a walk of the heap) and the run
        goes on from that count while it is within the limit. The next count comes after a
        sixteenth of the limit at least, so a run that holds close to the limit is not
        counted at every operation."""
        live = self.nodes if self.live_nodes is None else self.live_nodes() + 1
        if live > self.node_limit:
            self.nodes = live
            GRAPH_NODES.check(live, "the number of operations recorded in the graph")
        self.nodes = min(live, self.node_limit - self.node_limit // 16)

    def allocated(self, nbytes: int) -> None:
        """A large array was just made: check the memory now."""
        if self.active and nbytes >= self.BIG:
            self.check_memory()
            self.check_clock()

    def check_memory(self) -> None:
        if not self.active or self.rss0 is None:
            return
        rss = _rss_bytes()
        if rss is None:
            return
        grown = rss - self.rss0
        if grown > self.collect_at:
            # Cyclic garbage may be what holds it: a run holds off the collector's older
            # generations (`core.tensor.recording`), and even Python's default first one lets
            # a loop drop hundreds of large tensors in cycles before it runs. Collected when
            # the growth passes half the limit, then half of what is left (at least a
            # sixteenth of the limit: a few collections a run): the memory freed is reused
            # (the resident size itself seldom shrinks).
            gc.collect()
            rss = _rss_bytes()
            grown = grown if rss is None else rss - self.rss0
            self.collect_at = grown + max((self.memory_limit - grown) // 2, self.memory_limit // 16)
        # Compared in whole MB, as the message reports it (comparing bytes could stop the
        # budget on 100.4 MB against a limit of 100 without raising).
        grown_mb = grown >> 20
        if grown_mb > self.memory_limit >> 20:
            MEMORY_MB.check(grown_mb, "the memory the program has taken, in MB,")

    def remaining(self) -> float | None:
        """Seconds left before the time limit (None outside a run): what a bounded step that
        cannot tick, like a worker process, may be given."""
        if not self.active:
            return None
        return max(
            0.0,
            min(self.deadline - time.process_time(), self.wall_deadline - time.monotonic()),
        )

    def _over_time(self, cpu: float, now: float) -> None:
        if cpu > self.deadline:
            found = f"{cpu - self.deadline + self.seconds:.1f} seconds of CPU time"
        else:
            wall = now - self.wall_deadline + self.seconds * self.WALL_FACTOR
            found = f"{wall:.1f} seconds of wall-clock time (the backstop)"
        raise LimitError(
            f"gradcli has run for over {self.seconds:,} seconds, the time limit",
            limit=TIME_SECONDS.name,
            found=found,
            expected=f"at most {self.seconds:,} ({TIME_SECONDS.name})",
            hint=f"raise it with the environment variable {TIME_SECONDS.env}=N if you need more",
        )


BUDGET = RunBudget()
