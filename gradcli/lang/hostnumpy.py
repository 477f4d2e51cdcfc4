"""A program's own NumPy computations on the host's own NumPy kernels.

gradcli pins NumPy's and OpenBLAS's kernels before NumPy's first import on an AVX-512 Linux
machine (`base.numpyhost`): its emulations of PyTorch's float64 kernels were measured against
NumPy's AVX2 code and OpenBLAS's Haswell LAPACK. A program that computes with NumPy itself
(`x ** 3` on an array, `np.exp`, `a.dot(b)`, `np.linalg.solve`) must however print what the
host's NumPy prints under PyTorch's python, which runs NumPy's AVX-512 (SVML) loops and
OpenBLAS's SkylakeX kernels: measured on a Zen 4 EPYC, NumPy 2.4, float64 `x ** 3` differed on
13 of 2000 samples of linspace(-pi, pi), `np.power(x, 1.5)` and `np.cbrt` in the last digit,
and a 4x300 @ 300x3 product's first entry in its last three.

Only the computations whose bits depend on those kernels go elsewhere: the ufuncs in `UFUNCS`
(their float loops are other code with AVX-512; `sin`, `cos`, `tanh`, `sqrt` and the
arithmetic are not, as measured) and the functions in `FUNCTIONS` (BLAS and LAPACK). They run
in one child process started at the first of them, with the environment as it was before the
pin (the host's kernels) and `python -I` (no program directory, no startup file), which
imports the same NumPy and computes just the named function of the arrays and plain values it
is sent, nothing else (`_CHILD`: the names are checked there again). The arguments were
checked and the work bounded by the caller before (the limits of `base.limits`); the child's
CPU time is charged to the program's time limit. Where nothing was pinned (another machine,
or the user's own settings) or the child cannot run, NumPy computes here, as before.
"""

from __future__ import annotations

import os
import struct
import sys
import time
from typing import Any

import numpy as np

from ..base import limits, numpyhost

# NumPy's ufuncs whose float loops are other code with AVX-512 (SVML, or NumPy's own AVX512F
# exp/log): their results differ in the last bits from the AVX2 machine's
UFUNCS = frozenset(
    "exp log exp2 expm1 log1p log2 log10 tan sinh cosh arcsin arccos arctan arcsinh arccosh "
    "arctanh cbrt power float_power arctan2 logaddexp logaddexp2".split()
)
# NumPy's functions that reach BLAS or LAPACK on float arrays (OpenBLAS's kernels)
FUNCTIONS = frozenset(
    "dot matmul inner vdot tensordot einsum convolve correlate cov corrcoef polyfit".split()
    + ["angle", "roots", "poly"]  # (arctan2 of the parts; the companion matrix's eigenvalues)
    + [
        f"linalg.{n}"
        for n in (
            "norm inv pinv det slogdet matrix_rank eig eigh eigvals eigvalsh svd qr cholesky "
            "solve lstsq cond svdvals matrix_norm vector_norm matrix_power multi_dot"
        ).split()
    ]
)
# their methods (`np.power.reduce`, `np.logaddexp.accumulate`): the same loops
UFUNC_METHODS = frozenset(
    f"{u}.{m}" for u in UFUNCS for m in ("reduce", "accumulate", "outer", "reduceat")
)
NAMES = UFUNCS | FUNCTIONS | UFUNC_METHODS

# The exceptions a NumPy function raises that its callers turn into the program's errors
_ERRORS: dict[str, type[BaseException]] = {
    "AxisError": np.exceptions.AxisError,
    "LinAlgError": np.linalg.LinAlgError,
    "ValueError": ValueError,
    "TypeError": TypeError,
    "IndexError": IndexError,
    "OverflowError": OverflowError,
}
_KINDS = "biufc"
# Powers whose every kernel gives the correctly rounded result (x * x, sqrt, 1 / x, x, 1):
# measured equal on 3 * 10**6 float64 and float32 arguments with and without AVX-512 (and the
# tutorials' `x ** 2` is the most frequent power)
_EXACT = (2, 0.5, -1, 1, 0)  # the dtypes' kinds that travel (never object arrays)
_MAX_NESTING = 8

_CHILD = r"""
import json, os, struct, sys, time, warnings
sys.path.insert(0, sys.argv[1])
import numpy as np
NAMES = frozenset(json.loads(sys.argv[2]))
KINDS = "biufc"
class NotRouted(Exception):
    pass
inp, outp = sys.stdin.buffer, sys.stdout.buffer

def read(n):
    data = inp.read(n)
    if data is None or len(data) != n:
        sys.exit(0)
    return data

def decode(v, arrays):
    tag = v[0]
    if tag == "a" or tag == "g":
        a = arrays[v[1]]
        return a[()] if tag == "g" else a
    if tag == "v":
        return v[1]
    if tag == "c":
        return complex(v[1], v[2])
    if tag == "t" or tag == "l":
        items = [decode(x, arrays) for x in v[1]]
        return tuple(items) if tag == "t" else items
    raise ValueError("bad argument")

def encode(v, arrays):
    if isinstance(v, np.ndarray) or isinstance(v, np.generic):
        a = np.asarray(v)
        if a.dtype.kind not in KINDS:
            raise TypeError("a result of " + str(a.dtype))
        arrays.append(a.copy(order="C"))
        return ["a" if isinstance(v, np.ndarray) else "g", len(arrays) - 1]
    if v is None or isinstance(v, (bool, int, float, str)):
        return ["v", v]
    if isinstance(v, complex):
        return ["c", v.real, v.imag]
    if isinstance(v, (tuple, list)):
        items = [encode(x, arrays) for x in v]
        fields = getattr(v, "_fields", None)
        if fields is not None:
            return ["n", type(v).__name__, list(fields), items]
        return ["t" if isinstance(v, tuple) else "l", items]
    raise TypeError("a result of " + type(v).__name__)

pool = bytearray(0)
while True:
    (size,) = struct.unpack("<Q", read(8))
    head = json.loads(read(size))
    arrays = []
    # the operands are read into one buffer kept from call to call (fresh memory for each
    # would fault its pages in every time: most of the child's time in a training loop)
    need = sum(-(-a[4] // 64) * 64 for a in head["arrays"])
    if len(pool) < need:
        pool = bytearray(max(need, 2 * len(pool)))
    view = memoryview(pool)
    at = 0
    for dt, shape, strides, offset, span in head["arrays"]:
        dtype = np.dtype(dt)
        if dtype.kind not in KINDS:
            sys.exit(1)
        if span and (inp.readinto(view[at:at + span]) or 0) != span:
            sys.exit(0)
        arrays.append(
            np.ndarray(shape, dtype, buffer=pool, offset=at + offset, strides=strides)
            if span else np.ndarray(shape, dtype)
        )
        at += -(-span // 64) * 64
    cpu = time.process_time()
    out_arrays = []
    try:
        name = head["fn"]
        if name not in NAMES:
            raise NotRouted(name)
        fn = np
        for part in name.split("."):
            fn = getattr(fn, part)
        args = [decode(v, arrays) for v in head["args"]]
        kwargs = {k: decode(v, arrays) for k, v in head["kwargs"].items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                result = fn(*args, **kwargs)
        reply = {"result": encode(result, out_arrays)}
    except Exception as e:
        out_arrays = []
        reply = {"error": type(e).__name__, "message": str(e)}
    reply["cpu"] = time.process_time() - cpu
    reply["arrays"] = [[a.dtype.str, list(a.shape)] for a in out_arrays]
    text = json.dumps(reply).encode()
    outp.write(struct.pack("<Q", len(text)) + text)
    for a in out_arrays:
        outp.write(memoryview(a).cast("B") if a.ndim else a.tobytes())
    outp.flush()
"""


def active() -> bool:
    """Whether a program's host-dependent NumPy computations go to the host's kernels: gradcli
    pinned NumPy's or OpenBLAS's kernels in this process (`base.numpyhost.pinned`), and the
    kernel family followed is not `avx2` (GRADCLI_KERNELS=avx2 prints an AVX2 machine's text,
    whose NumPy runs the pinned kernels)."""
    if not numpyhost.pinned() or not _WORKER.usable():
        return False
    from ..core import cpu

    return cpu.family() != "avx2"


def compute(name: str, *args: Any, **kwargs: Any) -> Any:
    """NumPy's `name` (one of `NAMES`: `"power"`, `"linalg.svd"`) of the arguments, as the
    host's NumPy computes it: in the child where gradcli pinned the kernels and the operands
    are of a kind whose bits depend on them, else here. Its exceptions are NumPy's own."""
    fn = _local(name)
    if name in NAMES and _depends_on_host(name, args, kwargs) and active():
        done, result = _WORKER.call(name, args, kwargs)
        if done:
            return result
    return fn(*args, **kwargs)


def _local(name: str) -> Any:
    fn: Any = np
    for part in name.split("."):
        fn = getattr(fn, part)
    return fn


def _depends_on_host(name: str, args: tuple, kwargs: dict) -> bool:
    """Whether the computation reaches the kernels in question: a float (or complex) operand,
    or, for the transcendental ufuncs, any number (NumPy computes integers in float64)."""
    if name == "power" and len(args) == 2 and type(args[1]) in (int, float) and args[1] in _EXACT:
        return False
    floats = False
    numbers = False
    for v in (*args, *kwargs.values()):
        if isinstance(v, (np.ndarray, np.generic)):
            kind = v.dtype.kind
            if kind not in _KINDS:
                return False  # (an object array: NumPy's own error or loops, here)
            numbers = True
            floats = floats or kind in "fc"
        elif isinstance(v, (float, complex)):
            floats = numbers = True
        elif isinstance(v, int):
            numbers = True
    if name in UFUNCS and name not in ("power",):
        return numbers
    return floats


class _Worker:
    """The child process that computes with the host's NumPy (started at its first use)."""

    def __init__(self) -> None:
        self.proc: Any = None  # the child (subprocess.Popen)
        self.pid = 0  # the process that started it (a fork computes here)
        self.broken = False
        self.lock: Any = None  # (made with the child: the modules imported when needed)
        self.registered = False

    def usable(self) -> bool:
        return not self.broken and sys.platform.startswith("linux")

    def _start(self) -> Any:
        if self.proc is not None and self.pid == os.getpid() and self.proc.poll() is None:
            return self.proc
        if self.proc is not None and self.pid == os.getpid():
            self.broken = True  # it died: compute here from now on
            return None
        env = dict(os.environ)
        env.pop(numpyhost.MARK, None)
        for key, value in numpyhost.pinned().items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value
        import json
        import subprocess

        where = os.path.dirname(os.path.dirname(os.path.abspath(np.__file__)))
        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-c", _CHILD, where, json.dumps(sorted(NAMES))],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                env=env,
                bufsize=0,
                close_fds=True,
            )
        except (OSError, ValueError, TypeError):  # (no interpreter to start: an embedding)
            self.broken = True
            return None
        self.proc, self.pid = proc, os.getpid()
        try:  # pipes of 1 MiB (Linux's default limit): a large array in fewer turns
            import fcntl

            for pipe in (proc.stdin, proc.stdout):
                fcntl.fcntl(pipe.fileno(), fcntl.F_SETPIPE_SZ, 1 << 20)
        except (ImportError, OSError, AttributeError):
            pass
        if not self.registered:
            import atexit

            atexit.register(self.close)
            self.registered = True
        return proc

    def call(self, name: str, args: tuple, kwargs: dict) -> tuple[bool, Any]:
        """(True, NumPy's result) from the child, or (False, None) when it cannot compute it
        (then the caller computes here). NumPy's exceptions are raised as NumPy's."""
        arrays: list[np.ndarray] = []
        try:
            head = {
                "fn": name,
                "args": [_encode(v, arrays, 0) for v in args],
                "kwargs": {str(k): _encode(v, arrays, 0) for k, v in kwargs.items()},
                "arrays": [_layout(a) for a in arrays],
            }
        except _NotSent:
            return False, None
        if self.lock is None:
            import threading

            self.lock = threading.Lock()
        with self.lock:
            proc = self._start()
            if proc is None:
                return False, None
            try:
                reply, data = self._exchange(proc, head, arrays)
            except (OSError, ValueError, KeyError, TypeError, _NotSent):
                self._kill()
                return False, None
        cpu = reply.get("cpu", 0.0)
        if limits.BUDGET.active and isinstance(cpu, float):
            limits.BUDGET.deadline -= cpu  # the child's time is the program's
        if "error" in reply:
            kind = _ERRORS.get(str(reply["error"]))
            if kind is None:
                return False, None  # computed here: NumPy's own failure, as before
            raise kind(str(reply.get("message", "")))
        try:
            return True, _decode(reply["result"], data, 0)
        except (KeyError, IndexError, TypeError, ValueError, _NotSent):
            return False, None

    def _exchange(self, proc: Any, head: dict, arrays: list) -> tuple[dict, list]:
        import json

        text = json.dumps(head, allow_nan=True).encode()
        assert proc.stdin is not None and proc.stdout is not None
        out = proc.stdin
        out.write(struct.pack("<Q", len(text)) + text)
        for a, layout in zip(arrays, head["arrays"], strict=True):
            out.write(_memory(a, layout))
        fd = proc.stdout.fileno()
        (size,) = struct.unpack("<Q", _read(fd, 8))
        reply = json.loads(_read(fd, size))
        data = []
        for dt, shape in reply.get("arrays", []):
            dtype = np.dtype(dt)
            if dtype.kind not in _KINDS or any(not isinstance(n, int) or n < 0 for n in shape):
                raise _NotSent
            count = 1
            for n in shape:
                count *= n
            limits.TENSOR_ELEMENTS.check(count, "the result of NumPy's computation")
            buf = _read(fd, count * dtype.itemsize)
            data.append(np.frombuffer(buf, dtype=dtype).reshape(shape))
        return reply, data

    def _kill(self) -> None:
        import subprocess

        proc, self.proc = self.proc, None
        self.broken = True
        if proc is not None:
            try:
                proc.kill()
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass

    def close(self) -> None:
        import subprocess

        proc, self.proc = self.proc, None
        if proc is None or self.pid != os.getpid():
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()


_WORKER = _Worker()


class _NotSent(Exception):
    """An argument or a reply that does not travel: NumPy computes here."""


def _read(fd: int, n: int) -> bytearray:
    """n bytes from the child, waiting no longer than the program's time allows (then the
    child is stopped and the time limit speaks)."""
    import select

    buf = bytearray(n)
    view = memoryview(buf)
    pos = 0
    while pos < n:
        left = limits.BUDGET.remaining()
        wait = 600.0 if left is None else left + 1.0
        start = time.monotonic()
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            _WORKER._kill()
            limits.BUDGET.deadline -= time.monotonic() - start
            limits.BUDGET.check_clock()
            raise _NotSent
        got = os.readv(fd, [view[pos:]])
        if not got:
            raise _NotSent  # the child ended
        pos += got
    return buf


def _encode(v: Any, arrays: list, depth: int) -> list:
    if depth > _MAX_NESTING:
        raise _NotSent
    if isinstance(v, (np.ndarray, np.generic)):
        a = np.asarray(v)
        if a.dtype.kind not in _KINDS or a.dtype.byteorder not in "=|<":
            raise _NotSent
        arrays.append(a)
        return ["a" if isinstance(v, np.ndarray) else "g", len(arrays) - 1]
    if v is None or isinstance(v, (bool, int, float, str)):
        if isinstance(v, str) and len(v) > 256:
            raise _NotSent
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 1 << 63:
            raise _NotSent
        return ["v", v]
    if isinstance(v, complex):
        return ["c", v.real, v.imag]
    if type(v) in (tuple, list) and len(v) <= 64:
        return ["t" if type(v) is tuple else "l", [_encode(x, arrays, depth + 1) for x in v]]
    raise _NotSent


def _layout(a: np.ndarray) -> list:
    """[dtype, shape, strides, offset, span]: the array as it lies in memory (a transposed
    matrix stays one: NumPy hands BLAS the transpose flag, not a copy, whose sums can differ),
    sent as the span of bytes it reaches, its first element `offset` bytes in."""
    lo = hi = 0
    for n, st in zip(a.shape, a.strides, strict=True):
        if n == 0:
            return [a.dtype.str, list(a.shape), [0] * a.ndim, 0, 0]
        if st < 0:
            lo += (n - 1) * st
        else:
            hi += (n - 1) * st
    return [a.dtype.str, list(a.shape), list(a.strides), -lo, hi - lo + a.dtype.itemsize]


def _memory(a: np.ndarray, layout: list) -> Any:
    """The bytes of the span `_layout` describes."""
    span, offset = layout[4], layout[3]
    if span == 0:
        return b""
    if a.flags.c_contiguous and a.ndim:
        return memoryview(a).cast("B")
    if a.flags.f_contiguous and a.ndim:
        return memoryview(a.T).cast("B")
    if a.flags.c_contiguous or a.flags.f_contiguous:
        return a.tobytes(order="A")
    import ctypes

    start = a.__array_interface__["data"][0] - offset
    return ctypes.string_at(start, span)


_NAMED: dict[tuple, Any] = {}


def _decode(v: Any, data: list, depth: int) -> Any:
    if depth > _MAX_NESTING or not isinstance(v, list) or not v:
        raise _NotSent
    tag = v[0]
    if tag in ("a", "g"):
        a = data[v[1]]
        return a[()] if tag == "g" else a
    if tag == "v":
        if v[1] is not None and not isinstance(v[1], (bool, int, float, str)):
            raise _NotSent
        return v[1]
    if tag == "c":
        return complex(float(v[1]), float(v[2]))
    if tag in ("t", "l"):
        items = [_decode(x, data, depth + 1) for x in v[1]]
        return tuple(items) if tag == "t" else items
    if tag == "n":  # NumPy's named tuples (SVDResult, EighResult...): one of the same name
        key = (str(v[1]), tuple(str(f) for f in v[2]))
        made = _NAMED.get(key)
        if made is None:
            import collections

            made = _NAMED[key] = collections.namedtuple(key[0], key[1])  # type: ignore[misc]
        return made(*(_decode(x, data, depth + 1) for x in v[3]))
    raise _NotSent
