"""Work that gradcli cannot interrupt from inside (sympy), run in a forked worker process that
is killed at its deadline.

sympy's simplification once hung a test run for 27 minutes under an in-process time bound:
sympy catches exceptions of its own (a SIGALRM raised inside it can be swallowed) and some of
its loops never return to Python code that could be interrupted. A process killed with SIGKILL
at the deadline cannot be held up. `bounded(fn)` forks; the child computes `fn(send)`, which
calls `send(result)` with each result worth having (a first, rough one early, a better one
later) and returns; each is pickled back through a pipe. The parent waits until the child
ends or the deadline passes (the smaller of the command's remaining time and the named limit
given), kills it if it must, and returns the last complete result.

The child shares everything the parent had at the fork (the program's graph, with nothing to
send over), is held to the memory limit by RLIMIT_AS, and leaves with `os._exit` (never
running the parent's exit handlers or flushing its buffered output). Where there is no
`fork`, the work runs in the process itself, without the hard bound.
"""

from __future__ import annotations

import os
import pickle
import select
import struct
import sys
import time
from collections.abc import Callable
from typing import Any

from ..base import limits
from ..base.errors import GradcliError, LimitError

Send = Callable[[Any], None]


class Expired(Exception):
    """The deadline passed before the worker sent anything (`limit`: which one bound it)."""

    def __init__(self, limit: limits.Limit | None, seconds: float):
        super().__init__(f"over {seconds:g} seconds")
        self.limit = limit
        self.seconds = seconds


def expired_error(e: Expired, what: str) -> LimitError:
    """The limit error of an expired worker: the command's time limit, or the named limit."""
    lim = e.limit or limits.TIME_SECONDS
    if lim is limits.TIME_SECONDS:
        return LimitError(
            f"gradcli has run for over {limits.TIME_SECONDS.value:,} seconds, the time limit "
            f"({what} was stopped)",
            expected=f"at most {limits.TIME_SECONDS.value:,} ({limits.TIME_SECONDS.name})",
            hint=f"raise it with the environment variable {limits.TIME_SECONDS.env}=N "
            "if you need more",
            limit=limits.TIME_SECONDS.name,
        )
    return LimitError(
        f"{what} took over {lim.value:,} seconds, over the limit of {lim.value:,}",
        expected=f"at most {lim.value:,} ({lim.name})",
        hint=f"raise it with the environment variable {lim.env}=N if you need more",
        limit=lim.name,
    )


class Partial:
    """The last result a worker sent before it was stopped at its deadline."""

    def __init__(self, value: Any):
        self.value = value


def _error_state(e: BaseException) -> tuple:
    if isinstance(e, GradcliError):
        return (
            "gradcli",
            type(e).__module__,
            type(e).__qualname__,
            e.message,
            e.found,
            e.expected,
            e.hint,
            getattr(e, "limit", None),
        )
    if isinstance(e, RecursionError):
        return ("recursion", str(e))
    if isinstance(e, MemoryError):
        return ("memory", str(e))
    return ("internal", f"{type(e).__name__}: {e}")


def _raise_state(state: tuple) -> None:
    kind = state[0]
    if kind == "gradcli":
        _, module, qualname, message, found, expected, hint, limit = state
        cls: Any = GradcliError
        mod = sys.modules.get(module)
        if mod is not None:
            got = getattr(mod, qualname, None)
            if isinstance(got, type) and issubclass(got, GradcliError):
                cls = got
        if issubclass(cls, LimitError):
            raise cls(message, found=found, expected=expected, hint=hint, limit=limit)
        raise cls(message, found=found, expected=expected, hint=hint)
    if kind == "recursion":
        raise RecursionError(state[1])
    if kind == "memory":
        raise LimitError(
            "out of memory in the worker process",
            expected=f"at most {limits.MEMORY_MB.value:,} MB ({limits.MEMORY_MB.name})",
            hint=f"raise it with the environment variable {limits.MEMORY_MB.env}=N",
            limit=limits.MEMORY_MB.name,
        )
    raise RuntimeError(f"in a worker process: {state[1]}")


def _write_frame(fd: int, data: bytes) -> None:
    buf = struct.pack("<Q", len(data)) + data
    view = memoryview(buf)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _child(fd: int, fn: Callable[[Send], Any]) -> None:
    try:
        _cap_memory()

        def send(value: Any) -> None:
            _write_frame(fd, pickle.dumps(("result", value), protocol=pickle.HIGHEST_PROTOCOL))

        fn(send)
        _write_frame(fd, pickle.dumps(("done",)))
    except BaseException as e:  # noqa: BLE001 - everything goes back to the parent
        try:
            _write_frame(fd, pickle.dumps(("error", _error_state(e))))
        except BaseException:  # noqa: BLE001
            pass
    finally:
        os._exit(0)


def _cap_memory() -> None:
    """RLIMIT_AS at the worker's size now plus the memory limit."""
    try:
        import resource

        with open("/proc/self/statm", "rb") as fh:
            size = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        cap = size + limits.MEMORY_MB.value * (1 << 20)
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        if soft == resource.RLIM_INFINITY or cap < soft:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (OSError, ValueError, ImportError, AttributeError):
        pass


def bounded(fn: Callable[[Send], Any], *, limit: limits.Limit | None = None) -> Any:
    """Run `fn(send)` in a worker killed at the deadline (the command's remaining time, and at
    most `limit`'s value in seconds); return the last value it sent.

    Raises what `fn` raised (gradcli's errors as themselves), `Expired` when the deadline
    passed before anything was sent, or returns `Partial(value)` when it passed after."""
    seconds = float(limit.value) if limit is not None else float("inf")
    binding: limits.Limit | None = limit
    left = limits.BUDGET.remaining()
    if left is not None and left < seconds:
        seconds, binding = left, limits.TIME_SECONDS
    if not hasattr(os, "fork"):  # pragma: no cover - no hard bound without fork
        box: list[Any] = []
        fn(box.append)
        if not box:
            raise RuntimeError("the worker sent no result")
        return box[-1]
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
        os.close(r)
        _child(w, fn)
    os.close(w)
    deadline = time.monotonic() + seconds
    buf = bytearray()
    frames: list[Any] = []
    finished = False
    try:
        while True:
            wait = deadline - time.monotonic()
            if wait <= 0:
                break
            ready, _, _ = select.select([r], [], [], min(wait, 3600.0))
            if not ready:
                continue
            chunk = os.read(r, 1 << 20)
            if not chunk:
                finished = True
                break
            buf += chunk
            while len(buf) >= 8:
                (n,) = struct.unpack("<Q", buf[:8])
                if len(buf) < 8 + n:
                    break
                frames.append(pickle.loads(bytes(buf[8 : 8 + n])))  # noqa: S301 - our child
                del buf[: 8 + n]
    finally:
        os.close(r)
        if not finished:
            try:
                os.kill(pid, 9)
            except ProcessLookupError:
                pass
        _, status = os.waitpid(pid, 0)
    last: Any = None
    have = False
    for frame in frames:
        if frame[0] == "result":
            last, have = frame[1], True
        elif frame[0] == "error":
            _raise_state(frame[1])
        elif frame[0] == "done":
            if not have:
                raise RuntimeError("the worker sent no result")
            return last
    if finished:
        if os.WIFSIGNALED(status):
            raise LimitError(
                f"the worker process was killed by signal {os.WTERMSIG(status)} (out of memory?)",
                expected=f"at most {limits.MEMORY_MB.value:,} MB ({limits.MEMORY_MB.name})",
                limit=limits.MEMORY_MB.name,
            )
        raise RuntimeError("the worker process ended without a result")
    if have:
        return Partial(last)
    raise Expired(binding, seconds)
