"""Run one hostile case: `python -m gradcli ...` in a subprocess, in a fresh directory, under
rlimits and a wall-clock timeout, and report what happened (exit status, output, time, peak
memory, what changed in the directory).

`report.py` runs the corpus (or some cases, or families) and prints what fails, grouped.
"""

from __future__ import annotations

import compileall
import hashlib
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .cases import Case, FileSpec

REPO = Path(__file__).resolve().parents[3]

# The child's address space: NumPy and sympy need some virtual memory beyond what they touch,
# so the hard cap is generous; the real check is the peak resident size (`PEAK_RSS`), measured
# per child with wait4.
ADDRESS_SPACE = 3 << 30
PEAK_RSS = 1 << 30
CPU_SECONDS = 60
KILL_AFTER = 1.5  # wall-clock seconds past a case's time bound before the child is killed


def load_factor() -> float:
    """How much slower than wall-clock a case may run because other processes share the CPUs:
    the 1-minute load per core, between 1 and 4. On an idle machine (CI) it is 1 and every
    bound holds as written; on a shared one, the deadlines stretch and the time judgement uses
    the command's own CPU time (see judge.py)."""
    try:
        per_core = os.getloadavg()[0] / (os.cpu_count() or 1)
    except OSError:
        return 1.0
    return min(4.0, max(1.0, per_core))


@dataclass
class Outcome:
    code: int | None  # None: killed after KILL_AFTER seconds
    stdout: bytes
    stderr: bytes
    seconds: float  # wall clock
    cpu: float  # the command's CPU seconds (user + system)
    load: float  # load_factor() when it ran: 1 on a machine with a core to spare
    peak_rss: int  # bytes
    created: list[str]
    changed: list[str]
    removed: list[str]
    signal: int | None = None

    @property
    def err(self) -> str:
        return self.stderr.decode("utf-8", "replace")

    @property
    def out(self) -> str:
        return self.stdout.decode("utf-8", "replace")

    def summary(self) -> str:
        first = self.err.splitlines()[0] if self.err.strip() else "(stderr empty)"
        if len(first) > 200:
            first = first[:200] + "…"
        code = "killed (timeout)" if self.code is None else f"exit {self.code}"
        if self.signal:
            code += f" (signal {self.signal})"
        return (
            f"{code}, {self.seconds:.1f} s, peak {self.peak_rss / 2**20:.0f} MiB; stderr: {first!r}"
        )


# The gradcli a case runs is a fork of a warm process per worker thread, which imported the
# command line once (python, numpy, typer and gradcli take 0.4-0.5 s to start: most of what
# 850 cases cost). The server gets each case's standard streams as file descriptors (over a
# Unix socket), forks, and the child sets up what a fresh `python -m gradcli` would have:
# its own session, the streams (None for a closed one, as Python makes them), the directory,
# the environment, the rlimits, argv, then runs the console script and exits with its status.
# The parent waits (killing the child at the case's deadline) and replies
# with the exit status, peak memory, whether it was killed, and CPU time.
_SERVER = """\
import json, os, resource, select, signal, socket, sys, time
import gradcli.cli.console as console
import gradcli.cli.app, gradcli.lang.program  # noqa: the imports every case makes
sock = socket.socket(fileno=int(sys.argv[1]))
while True:
    msg, fds, _, _ = socket.recv_fds(sock, 1 << 16, 3)
    if not msg:
        break
    with open(msg.decode(), encoding="utf-8") as fh:  # the request: a file (argv may be MBs)
        req = json.load(fh)
    deadline = time.monotonic() + req["seconds"]
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.setsid()
            for src, dst in zip(fds, (0, 1, 2)):
                os.dup2(src, dst)
            for fd in fds:
                if fd > 2:
                    os.close(fd)
            sock.close()
            if req["close_stdin"]:
                os.close(0)
                sys.stdin = sys.__stdin__ = None
            if req["close_stdout"]:
                os.close(1)
                sys.stdout = sys.__stdout__ = None
            os.chdir(req["cwd"])
            os.environ.clear()
            os.environ.update(req["env"])
            for which, n in ((resource.RLIMIT_AS, req["space"]), (resource.RLIMIT_CPU, req["cpu"]),
                             (resource.RLIMIT_FSIZE, req["fsize"]), (resource.RLIMIT_CORE, 0)):
                resource.setrlimit(which, (n, n))
            sys.argv = ["gradcli", *req["argv"]]
            try:
                console.main()
                code = 0
            except SystemExit as e:
                c = e.code
                if c is None:
                    code = 0
                elif isinstance(c, int):
                    code = c & 0xFF
                else:
                    print(c, file=sys.stderr)
                    code = 1
            except BaseException:
                import traceback
                traceback.print_exc()
                code = 1
            for stream in (sys.stdout, sys.stderr):
                try:
                    if stream is not None:
                        stream.flush()
                except BaseException:
                    code = code or 120  # as Python exits when the final flush fails
        finally:
            os._exit(code)
    for fd in fds:
        os.close(fd)
    killed = 0
    # woken when the child ends (a pidfd), not every 5 ms: 2,000 cases waited ~2.5 ms each
    try:
        ended = os.pidfd_open(pid)
    except (AttributeError, OSError):
        ended = None
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        left = deadline - time.monotonic()
        if left < 0:
            os.kill(pid, signal.SIGKILL)
            killed = 1
            _, status, usage = os.wait4(pid, 0)
            break
        if ended is None:
            time.sleep(0.005)
        else:
            select.select([ended], [], [], left)
    if ended is not None:
        os.close(ended)
    cpu = usage.ru_utime + usage.ru_stime
    reply = [os.waitstatus_to_exitcode(status), usage.ru_maxrss, killed, round(cpu, 3), pid]
    sock.sendall((json.dumps(reply) + "\\n").encode())
"""


class _Warm:
    """One warm server (see _SERVER), used by one thread at a time."""

    def __init__(self, env: dict[str, str]) -> None:
        import socket

        self.sock, theirs = socket.socketpair()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SERVER, str(theirs.fileno())],
            env=env,
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            cwd=str(REPO),
        )
        theirs.close()
        self.replies = self.sock.makefile("r")

    def run(self, request: dict, fds: list[int], path: Path) -> list | None:
        import json
        import socket

        path.write_text(json.dumps(request), encoding="utf-8")
        try:
            socket.send_fds(self.sock, [str(path).encode()], fds)
            line = self.replies.readline()
        except OSError:
            return None
        return json.loads(line) if line else None

    def close(self) -> None:
        try:
            self.sock.close()
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


_WARM = threading.local()
_ALL_WARM: list[_Warm] = []
_WARM_LOCK = threading.Lock()


def _warm_server(env: dict[str, str]) -> _Warm:
    w = getattr(_WARM, "server", None)
    if w is None or w.proc.poll() is not None:
        w = _WARM.server = _Warm(env)
        with _WARM_LOCK:
            _ALL_WARM.append(w)
    return w


def close_servers() -> None:
    with _WARM_LOCK:
        servers = list(_ALL_WARM)
        _ALL_WARM.clear()
    for w in servers:
        w.close()


def snapshot(root: Path) -> dict[str, tuple]:
    """Every entry under `root` (not following symlinks): kind, size, mtime, content hash."""
    out: dict[str, tuple] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            st = os.lstat(p)
            if stat.S_ISREG(st.st_mode):
                h = hashlib.sha256()
                with open(p, "rb") as fh:
                    for chunk in iter(lambda: fh.read(1 << 20), b""):
                        h.update(chunk)
                out[rel] = ("file", st.st_size, st.st_mtime_ns, h.hexdigest(), st.st_ino)
            elif stat.S_ISLNK(st.st_mode):
                out[rel] = ("link", os.readlink(p))
            else:
                out[rel] = (stat.S_IFMT(st.st_mode),)
    return out


def _make_file(root: Path, name: str, spec: FileSpec) -> None:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(spec, bytes):
        path.write_bytes(spec)
    elif isinstance(spec, str):
        path.write_bytes(spec.encode("utf-8", "surrogatepass"))
    elif spec[0] == "fifo":
        os.mkfifo(path)
    elif spec[0] == "dir":
        path.mkdir()
    elif spec[0] == "symlink":
        os.symlink(spec[1].replace("{cwd}", str(root)), path)
    elif spec[0] == "hardlink":
        os.link(root / spec[1], path)
    elif spec[0] == "repeat":  # ("repeat", chunk, count, head, tail): a large file, streamed
        _, chunk, count, head, tail = spec
        with open(path, "wb") as fh:
            fh.write(head)
            block = chunk * max(1, (1 << 20) // len(chunk))
            written = 0
            total = len(chunk) * count
            while written < total:
                piece = block[: total - written]
                fh.write(piece)
                written += len(piece)
            fh.write(tail)
    elif spec[0] == "npy":  # ("npy", header dict text, payload bytes)
        _, header, payload = spec
        h = header.encode("latin-1")
        pad = 64 - (10 + len(h) + 1) % 64
        h = h + b" " * pad + b"\n"
        path.write_bytes(b"\x93NUMPY\x01\x00" + len(h).to_bytes(2, "little") + h + payload)
    else:  # pragma: no cover - a mistake in the corpus
        raise ValueError(f"unknown file spec {spec!r}")


# What the warm server starts with (the rest of a case's environment is set in its child).
_BASE_KEYS = (
    "PATH",
    "PYTHONPATH",
    "PYTHONDONTWRITEBYTECODE",
    "LC_ALL",
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
)


def run_case(case: Case, workdir: Path | None = None) -> tuple[Outcome, Path, dict, dict]:
    """Run `case`; returns the outcome, the directory it ran in, and the snapshots of that
    directory before and after (the caller removes the directory)."""
    root = Path(workdir or tempfile.mkdtemp(prefix="hostile2-"))
    cwd = root / "cwd"
    cwd.mkdir(exist_ok=True)
    side = root / "side"  # stdout/stderr of the child, outside the directory it runs in
    side.mkdir(exist_ok=True)
    program = case.program
    if program is not None:
        _make_file(cwd, case.prog_name, program)
    for name, spec in case.files.items():
        _make_file(cwd, name, spec)
    before = snapshot(cwd)

    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(root / "home"),
        "PYTHONPATH": str(REPO),
        "PYTHONDONTWRITEBYTECODE": "1",
        "COLUMNS": "100",
        "LC_ALL": "C.UTF-8",
        # (a fraction of a second: ~200 cases run into it, and each second was CI's)
        "GRADCLI_TIME_SECONDS": "0.5",
        # One BLAS thread: two cases run at a time on two cores, and a multi-threaded matmul
        # sums in an order that varies from run to run (gradcli's `rows` compares two passes
        # bit for bit to choose its path: the cases must not depend on the machine's load).
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        **case.env,
    }
    load = load_factor()
    kill_after = (case.kill_after or case.seconds + KILL_AFTER) * load
    gradcli_argv = [a.replace("{cwd}", str(cwd)) for a in case.argv]

    out_path, err_path = side / "stdout", side / "stderr"
    err_fh = open(err_path, "wb")
    if case.stdin in ("null", "closed"):
        stdin = open(os.devnull, "rb")
    elif case.stdin == "zero":
        stdin = open("/dev/zero", "rb")
    else:
        stdin = open(side / "stdin", "w+b")
        stdin.write(case.stdin)
        stdin.seek(0)
    if case.stdout == "full":
        stdout = open("/dev/full", "wb")
    elif case.stdout == "broken":  # a pipe whose reader has gone
        read_end, write_end = os.pipe()
        os.close(read_end)
        stdout = os.fdopen(write_end, "wb")
    else:
        stdout = open(out_path, "wb")

    base = {k: env[k] for k in _BASE_KEYS if k in env and k not in case.env}
    server = _warm_server(base)
    request = {
        "argv": gradcli_argv,
        "cwd": str(cwd),
        "env": env,
        "space": ADDRESS_SPACE,
        "cpu": CPU_SECONDS,
        "fsize": case.fsize or 1 << 30,
        "close_stdin": case.stdin == "closed",
        "close_stdout": case.stdout == "closed",
        "seconds": kill_after,
    }
    start = time.monotonic()
    fds = [stdin.fileno(), stdout.fileno(), err_fh.fileno()]
    reply = server.run(request, fds, side / "request.json")
    took = time.monotonic() - start
    killed = reply is None or reply[2] == 1
    code_now: int | None = None if reply is None else int(reply[0])
    peak = 0 if reply is None else int(reply[1]) * 1024
    cpu = took if reply is None else float(reply[3])
    if reply is not None:
        try:  # anything it left behind in its session
            os.killpg(int(reply[4]), signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for fh in (stdin, stdout, err_fh):
        fh.close()

    after = snapshot(cwd)
    code: int | None = code_now
    sig = None
    if code is not None and code < 0:
        sig = -code
    if killed:
        code = None
    outcome = Outcome(
        code=code,
        stdout=out_path.read_bytes() if out_path.exists() else b"",
        stderr=err_path.read_bytes(),
        seconds=took,
        cpu=cpu,
        load=load,
        peak_rss=peak,
        created=sorted(set(after) - set(before)),
        changed=sorted(k for k in set(before) & set(after) if before[k] != after[k]),
        removed=sorted(set(before) - set(after)),
        signal=sig,
    )
    return outcome, cwd, before, after


def judged(case: Case) -> tuple[list[str], str, str | None]:
    """Run `case` in a temporary directory (removed after) and judge it: (problems, summary,
    the exported script still to check: see judge.judge)."""
    from .judge import judge

    root = Path(tempfile.mkdtemp(prefix="hostile2-"))
    try:
        outcome, cwd, _, _ = run_case(case, root)
        problems, script = judge(case, outcome, cwd)
        return problems, outcome.summary(), script
    finally:
        shutil.rmtree(root, ignore_errors=True)


class Scheduler:
    """Runs cases `workers` at a time: the others in the order given, then the time-limit
    cases (which measure wall-clock time against a tight bound, so none of them waits behind
    a memory bomb).

    Made early (`early=True`, from tests/conftest.py once the tests are collected), it runs
    one case at a time beside the in-process tests, which use the other core, and widens to
    `workers` when the first result is asked for (the in-process tests are then done); the
    time-limit cases wait for that, so they run on a machine with no tests of ours beside."""

    def __init__(self, cases: list[Case], workers: int = 2, early: bool = False) -> None:
        from .cases import TIME

        # Every case imports gradcli from the source tree with PYTHONDONTWRITEBYTECODE set:
        # bytecode compiled once here, as an installed package has it, spares each case
        # compiling the modules it imports (0.3-0.6 s of its time bound).
        compileall.compile_dir(REPO / "gradcli", quiet=1)

        self.workers = workers
        self.narrow = 1 if early and workers > 1 else workers
        self.slots = threading.Semaphore(self.narrow)
        self.widened = threading.Event()
        if self.narrow == workers:
            self.widened.set()
        self.pool = ThreadPoolExecutor(max_workers=workers)
        order = [c for c in cases if c.family != TIME] + [c for c in cases if c.family == TIME]
        self.futures: dict[str, Future] = {
            c.id: self.pool.submit(self._run, c, c.family == TIME) for c in order
        }

    def _run(self, case: Case, timed: bool) -> tuple[list[str], str, str | None]:
        if timed:
            self.widened.wait()
        with self.slots:
            return judged(case)

    def widen(self) -> None:
        if not self.widened.is_set():
            self.widened.set()
            for _ in range(self.workers - self.narrow):
                self.slots.release()

    def result(self, case_id: str) -> tuple[list[str], str]:
        from .judge import inert_problems

        self.widen()
        problems, summary, script = self.futures[case_id].result()
        if script is not None:  # parsed here, in the caller's thread (see judge.judge)
            problems = problems + inert_problems(script)
        return problems, summary

    def close(self) -> None:
        for f in self.futures.values():
            f.cancel()
        self.widen()  # a waiting time-limit case must not hold the shutdown
        self.pool.shutdown(wait=True)
        close_servers()
