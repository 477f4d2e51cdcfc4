"""gradcli side by side with PyTorch, JAX, HIPS autograd and hand-written NumPy: the workloads
W1-W5 of issue 12, in one run, every library on one thread, the systems interleaved.

    python benchmarks/run.py                 # everything (about 3 minutes on 2 cores)
    python benchmarks/run.py --quick         # a smoke test: fewer rounds, smaller sizes (< 1 min)
    python benchmarks/run.py --only W3       # one workload (or a list: --only W2,W5)
    python benchmarks/run.py --reps 30       # exactly 30 interleaved rounds per case
    python benchmarks/run.py --append        # add this run to RESULTS.md instead of replacing it

Workloads (gradcli / peer, lower is better; the floor is closed-form or hand-written NumPy):
  W1  `gradcli backward examples/seed_masks.py`, the whole process, against the same walkthrough
      in `python -c "import torch; ..."` (and JAX, HIPS autograd) and `python -c "import numpy"`.
      Bytecode compiled, as an install has it.
  W2  the Jacobian of y = tanh(W2 @ tanh(W1 @ x + b1) + b2) with respect to x, (n, h, m) =
      64^3, 256^3, 1024x256x1024. gradcli goes through the program path: parse the program text,
      run it with the data as overrides, `jacobian(run, "y", ["x"], "batched")`.
  W3  a chain of N elementwise steps (x = sin(x), x = x * 1.0001, alternating) on 64 elements,
      then the gradient of sum(x); N = 1e3, 1e4, 1e5; also reported per step.
  W4  the gradient of sum(sigmoid(x) * x**2), x of 1e6 elements.
  W5  the Hessian of sum(tanh(W @ x)) with respect to x, n = 64, 256, through the program path.

Method: every system gets the same float64 data. Each case first calls every system 2-4 times
(warm-up, not counted: the first call's time is reported separately, it holds JAX's compile
time), then runs rounds: in each round every system is timed once, in a rotating order, so that
load from other processes affects them alike. A sample times enough back-to-back calls to last
about 20 ms (2 ms with --quick). Every result of every call is checked against the closed form
after its sample; a wrong result stops the run with an error. Reported: the median time per call
over the rounds and the interquartile range; a ratio is the median over the rounds of the ratio
within a round (the two systems ran close together, under the same load); W3 also reports the
median CPU time per step of gradcli and torch (every library runs on one thread, so CPU time is
the work itself: W3's three lengths are measured a minute or more apart, and on a loaded
machine their wall times per step differ with the load of that minute). Objects alive after
the imports are frozen out of the garbage collector (`gc.freeze()`), so that the peers' imports
do not make gradcli's collections slower than in a process of its own; a full collection runs
before each sample, outside the timing.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "RESULTS.md"


# === The gradcli adapter: every call into gradcli is in this section ========================
# Only the public top-level API and the CLI are used. When the library API changes, this is the
# one place to follow it.

SEED_PROGRAM = "examples/seed_masks.py"
# Exactly what the `gradcli` console script runs (`python -m gradcli` would add runpy).
CLI = [
    "-c",
    "import sys; from gradcli.__main__ import main; sys.exit(main())",
    "backward",
    SEED_PROGRAM,
]
gradcli: Any = None


def gradcli_import() -> str:
    """Import gradcli (from this checkout); returns its version."""
    global gradcli
    sys.path.insert(0, str(ROOT))
    import gradcli as module

    gradcli = module
    return str(module.__version__)


def lib_parse(text: str) -> Any:
    """Parse program text (`gradcli.parse`)."""
    return gradcli.parse(text)


def lib_run(program: Any, data: dict[str, Any]) -> Any:
    """Run a parsed program with leaf tensors' data replaced (`Program.run(overrides=...)`)."""
    return program.run(overrides=data)


def lib_gradient(run: Any, of: str, wrt: str) -> Any:
    """d(of)/d(wrt) of a one-element output, one backward pass (`gradcli.backward`)."""
    return gradcli.backward(run, of=of, wrt=[wrt]).grads[wrt]


def lib_jacobian(run: Any, of: str, wrt: str) -> Any:
    return gradcli.jacobian(run, of, [wrt], "batched").array


def lib_hessian(run: Any, of: str, wrt: str) -> Any:
    return gradcli.hessian(run, of, [wrt], "batched").array


def lib_leaf(array: Any) -> Any:
    """A leaf `gradcli.Tensor` that requires grad; its methods mirror torch.Tensor's
    (`.sin()`, `.sigmoid()`, `*`, `**`, `.sum()`, `.backward()`, `.grad`)."""
    return gradcli.Tensor(array, requires_grad=True)


def lib_grad_of(leaf: Any) -> Any:
    return leaf.grad.numpy()


# === Workload definitions ===================================================================

MLP_SIZES = [(64, 64, 64), (256, 256, 256), (1024, 256, 1024)]
CHAIN_LENGTHS = [1_000, 10_000, 100_000]
CHAIN_WIDTH = 64
CHAIN_FACTOR = 1.0001
W4_SIZE = 1_000_000
HESSIAN_SIZES = [64, 256]

QUICK_MLP_SIZES = [(64, 64, 64), (256, 256, 256)]
QUICK_CHAIN_LENGTHS = [1_000, 10_000]
QUICK_W4_SIZE = 100_000

# Columns of the summary: the peers, in the order of issue 12's table.
PEERS = [
    ("torch", "torch 2.x CPU"),
    ("jax", "JAX jit"),
    ("hips", "HIPS autograd"),
]
SYSTEM_NAMES = {
    "gradcli": "gradcli",
    "gradcli-tensor": "gradcli, Tensor API (no interpreter)",
    "gradcli-prerun": "gradcli on a run made once (no parse, no run)",
    "torch": "torch",
    "jax": "JAX jit",
    "hips": "HIPS autograd",
    "floor": "the floor",
    "python": "python -c pass",
}


def mlp_program(n: int, h: int, m: int) -> str:
    return (
        "import torch\n"
        f"x = torch.zeros({n}, dtype=torch.float64, requires_grad=True)\n"
        f"W1 = torch.zeros({h}, {n}, dtype=torch.float64)\n"
        f"b1 = torch.zeros({h}, dtype=torch.float64)\n"
        f"W2 = torch.zeros({m}, {h}, dtype=torch.float64)\n"
        f"b2 = torch.zeros({m}, dtype=torch.float64)\n"
        "y = torch.tanh(W2 @ torch.tanh(W1 @ x + b1) + b2)\n"
    )


def chain_program(n_steps: int) -> str:
    return (
        "import torch\n"
        f"x0 = torch.zeros({CHAIN_WIDTH}, dtype=torch.float64, requires_grad=True)\n"
        "x = x0\n"
        f"for i in range({n_steps // 2}):\n"
        "    x = torch.sin(x)\n"
        f"    x = x * {CHAIN_FACTOR}\n"
        "y = x.sum()\n"
    )


def sigmoid_program(n: int) -> str:
    return (
        "import torch\n"
        f"x = torch.zeros({n}, dtype=torch.float64, requires_grad=True)\n"
        "y = (torch.sigmoid(x) * x ** 2).sum()\n"
    )


def hessian_program(n: int) -> str:
    return (
        "import torch\n"
        f"x = torch.zeros({n}, dtype=torch.float64, requires_grad=True)\n"
        f"W = torch.zeros({n}, {n}, dtype=torch.float64)\n"
        "y = torch.tanh(W @ x).sum()\n"
    )


# W1: the first seed's walkthrough (three masked backward passes, then loss.backward()), and the
# gradient it ends with, printed. gradcli prints `2 2 2 2` (`backward` from `loss`).
W1_TORCH = """\
import torch
x = torch.tensor([[1., 2., 3., 4.]], requires_grad=True)
z = 2 * x
loss = z.sum(dim=1)
for m in ([1., 0, 0, 0], [0, 1., 0, 0], [1., 1, 1, 1]):
    z.backward(torch.tensor([m]), retain_graph=True)
    x.grad.zero_()
loss.backward()
print(*x.grad.flatten().tolist())
"""
W1_JAX = """\
import jax, jax.numpy as jnp
x = jnp.array([[1., 2., 3., 4.]])
z, vjp = jax.vjp(lambda v: 2 * v, x)
for m in ([1., 0, 0, 0], [0, 1., 0, 0], [1., 1, 1, 1]):
    vjp(jnp.array([m]))
g = jax.grad(lambda v: (2 * v).sum(axis=1).sum())(x)
print(*g.ravel().tolist())
"""
W1_HIPS = """\
import autograd.numpy as np
from autograd import grad, make_vjp
x = np.array([[1., 2., 3., 4.]])
vjp, z = make_vjp(lambda v: 2 * v)(x)
for m in ([1., 0, 0, 0], [0, 1., 0, 0], [1., 1, 1, 1]):
    vjp(np.array([m]))
g = grad(lambda v: np.sum(np.sum(2 * v, axis=1)))(x)
print(*g.ravel().tolist())
"""


# === Timing =================================================================================


class WrongResult(Exception):
    pass


@dataclass
class Timing:
    samples: list[float] = field(default_factory=list)  # seconds per call, one per round
    # the process's CPU time per call, one per round (all single-threaded: the work done,
    # whatever the other processes of a loaded machine take of the cores meanwhile)
    cpu: list[float] = field(default_factory=list)
    inner: int = 1  # calls per sample
    first: float = 0.0  # the very first call (JAX: tracing and compiling included)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def iqr(self) -> float:
        """Interquartile range relative to the median."""
        if len(self.samples) < 2:
            return 0.0
        q = statistics.quantiles(self.samples, n=4, method="inclusive")
        return (q[2] - q[0]) / self.median


@dataclass
class Case:
    workload: str  # "W2"
    label: str  # "256x256x256"
    systems: dict[str, Callable[[], Any]]
    reference: Any  # np.ndarray
    tol: float = 1e-8  # on max |result - reference| / max |reference|
    per: int = 1  # report time / per too (W3: per step)
    floor: str = "closed form"
    timings: dict[str, Timing] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def to_numpy(value: Any) -> Any:
    import numpy as np

    if hasattr(value, "detach"):  # torch
        value = value.detach().numpy()
    return np.asarray(value, dtype=np.float64)


def check(case: Case, system: str, value: Any) -> None:
    import numpy as np

    got = to_numpy(value)
    ref = case.reference
    where = f"{case.workload} {case.label}: {SYSTEM_NAMES[system]}"
    if got.shape != ref.shape:
        raise WrongResult(f"{where} returned shape {got.shape}, the closed form has {ref.shape}")
    scale = float(np.max(np.abs(ref))) or 1.0
    err = float(np.max(np.abs(got - ref))) / scale if got.size else 0.0
    if not err <= case.tol:  # also catches NaN
        raise WrongResult(
            f"{where} is wrong: max |error| / max |closed form| = {err:.3g} "
            f"(tolerance {case.tol:g})"
        )


def measure(
    case: Case, rounds: int | None, target: float, budget: float, least: int, most: int
) -> None:
    """Time every system of `case`, interleaved. `rounds` None: as many as fit in `budget`
    seconds, between `least` and `most`. `target` 0: one call per sample, one warm-up call."""
    t = {k: Timing() for k in case.systems}
    per_round = 0.0
    for k, f in case.systems.items():
        gc.collect()
        t0 = time.perf_counter()
        out = f()
        t[k].first = time.perf_counter() - t0
        check(case, k, out)
        if target <= 0:
            per_round += t[k].first
            continue
        # The calls per sample, from the fastest of up to 3 more calls (one slow call under
        # load would otherwise make the samples short and noisy).
        calls: list[float] = []
        while len(calls) < 3 and (not calls or sum(calls) < target):
            t0 = time.perf_counter()
            out = f()
            calls.append(time.perf_counter() - t0)
            check(case, k, out)
        t[k].inner = max(1, min(10_000, round(target / max(min(calls), 1e-7))))
        per_round += t[k].inner * min(calls)
    if rounds is None:
        rounds = max(least, min(most, int(budget / per_round)))
    keys = list(case.systems)
    for r in range(rounds):
        shift = r % len(keys)
        for k in keys[shift:] + keys[:shift]:
            f, n = case.systems[k], t[k].inner
            outs: list[Any] = [None] * n
            gc.collect()
            c0 = time.process_time()
            t0 = time.perf_counter()
            for i in range(n):
                outs[i] = f()
            dt = time.perf_counter() - t0
            t[k].cpu.append((time.process_time() - c0) / n)
            for o in outs:
                check(case, k, o)
            del outs
            t[k].samples.append(dt / n)
    case.timings = t


# === The workloads ==========================================================================


@dataclass
class Peers:
    np: Any
    torch: Any = None
    jax: Any = None
    jnp: Any = None
    hips: Any = None
    anp: Any = None
    missing: dict[str, str] = field(default_factory=dict)


def w2_cases(p: Peers, sizes: list[tuple[int, int, int]]) -> list[Case]:
    np, torch, jax, jnp, anp = p.np, p.torch, p.jax, p.jnp, p.anp
    cases = []
    for n, h, m in sizes:
        rng = np.random.default_rng(n + 7 * h + 13 * m)
        data = {
            "x": rng.standard_normal(n),
            "W1": rng.standard_normal((h, n)) / n**0.5,
            "b1": rng.standard_normal(h),
            "W2": rng.standard_normal((m, h)) / h**0.5,
            "b2": rng.standard_normal(m),
        }
        x, W1, b1, W2, b2 = (data[k] for k in ("x", "W1", "b1", "W2", "b2"))
        text = mlp_program(n, h, m)

        def closed(x=x, W1=W1, b1=b1, W2=W2, b2=b2) -> Any:
            hh = np.tanh(W1 @ x + b1)
            yy = np.tanh(W2 @ hh + b2)
            return ((1 - yy * yy)[:, None] * W2) @ ((1 - hh * hh)[:, None] * W1)

        def program_path(text=text, data=data) -> Any:
            return lib_jacobian(lib_run(lib_parse(text), data), "y", "x")

        prerun = lib_run(lib_parse(text), data)
        systems: dict[str, Callable[[], Any]] = {
            "gradcli": program_path,
            "gradcli-prerun": lambda run=prerun: lib_jacobian(run, "y", "x"),
        }
        if p.torch is not None:
            tW1, tb1, tW2, tb2, tx = (torch.from_numpy(a) for a in (W1, b1, W2, b2, x))

            def tf(v, tW1=tW1, tb1=tb1, tW2=tW2, tb2=tb2):
                return torch.tanh(tW2 @ torch.tanh(tW1 @ v + tb1) + tb2)

            tj = torch.func.jacrev(tf)
            systems["torch"] = lambda tj=tj, tx=tx: tj(tx)
        if p.jax is not None:
            jW1, jb1, jW2, jb2, jx = (jnp.asarray(a) for a in (W1, b1, W2, b2, x))

            def jf(v, jW1=jW1, jb1=jb1, jW2=jW2, jb2=jb2):
                return jnp.tanh(jW2 @ jnp.tanh(jW1 @ v + jb1) + jb2)

            jj = jax.jit(jax.jacrev(jf))
            systems["jax"] = lambda jj=jj, jx=jx: jj(jx).block_until_ready()
        if p.hips is not None:

            def hf(v, W1=W1, b1=b1, W2=W2, b2=b2):
                return anp.tanh(W2 @ anp.tanh(W1 @ v + b1) + b2)

            hj = p.hips.jacobian(hf)
            systems["hips"] = lambda hj=hj, x=x: hj(x)
        systems["floor"] = closed
        case = Case("W2", f"{n}x{h}x{m}", systems, closed())
        cases.append(case)
    return cases


def w3_cases(p: Peers, lengths: list[int]) -> list[Case]:
    np, torch, anp = p.np, p.torch, p.anp
    c = CHAIN_FACTOR
    a = np.linspace(0.5, 1.5, CHAIN_WIDTH)
    cases = []
    for steps in lengths:
        half = steps // 2
        text = chain_program(steps)

        def hand(a=a, half=half) -> Any:
            xs = []
            x = a
            for _ in range(half):
                xs.append(x)
                x = np.sin(x) * c
            g = np.ones_like(a)
            for xk in reversed(xs):
                g = g * c * np.cos(xk)
            return g

        def program_path(text=text) -> Any:
            return lib_gradient(lib_run(lib_parse(text), {"x0": a}), "y", "x0")

        def tensor_api(half=half) -> Any:
            x0 = lib_leaf(a.copy())
            x = x0
            for _ in range(half):
                x = x.sin()
                x = x * c
            x.sum().backward()
            return lib_grad_of(x0)

        systems: dict[str, Callable[[], Any]] = {
            "gradcli": program_path,
            "gradcli-tensor": tensor_api,
        }
        if p.torch is not None:

            def torch_eager(half=half) -> Any:
                x0 = torch.from_numpy(a).requires_grad_()
                x = x0
                for _ in range(half):
                    x = torch.sin(x)
                    x = x * c
                return torch.autograd.grad(x.sum(), x0)[0]

            systems["torch"] = torch_eager
        if p.hips is not None:

            def hips_chain(v, half=half):
                for _ in range(half):
                    v = anp.sin(v)
                    v = v * c
                return anp.sum(v)

            hg = p.hips.grad(hips_chain)
            systems["hips"] = lambda hg=hg: hg(a)
        systems["floor"] = hand
        case = Case("W3", f"N={steps:.0e}".replace("+0", ""), systems, hand(), per=2 * half)
        case.floor = "hand NumPy"
        case.notes.append("JAX: not run (jit of an N-step unrolled chain compiles for minutes)")
        cases.append(case)
    return cases


def w4_cases(p: Peers, size: int) -> list[Case]:
    np = p.np
    x = np.random.default_rng(4).standard_normal(size)
    s = 1 / (1 + np.exp(-x))
    reference = s * (1 - s) * x * x + 2 * x * s
    text = sigmoid_program(size)

    def hand() -> Any:
        # forward and backward by hand; sigmoid as 0.5 tanh(x/2) + 0.5 (safe and cheapest)
        sg = np.tanh(0.5 * x)
        sg *= 0.5
        sg += 0.5
        x2 = x * x
        _ = np.dot(sg, x2)  # the value
        g = sg * (1 - sg)
        g *= x2
        g += 2 * x * sg
        return g

    def program_path() -> Any:
        return lib_gradient(lib_run(lib_parse(text), {"x": x}), "y", "x")

    def tensor_api() -> Any:
        leaf = lib_leaf(x)
        (leaf.sigmoid() * leaf**2).sum().backward()
        return lib_grad_of(leaf)

    systems: dict[str, Callable[[], Any]] = {"gradcli": program_path, "gradcli-tensor": tensor_api}
    if p.torch is not None:
        torch = p.torch

        def torch_eager() -> Any:
            v = torch.from_numpy(x).requires_grad_()
            return torch.autograd.grad((torch.sigmoid(v) * v**2).sum(), v)[0]

        systems["torch"] = torch_eager
    if p.jax is not None:
        jax, jnp = p.jax, p.jnp
        jg = jax.jit(jax.grad(lambda v: jnp.sum(jax.nn.sigmoid(v) * v**2)))
        jx = jnp.asarray(x)
        systems["jax"] = lambda: jg(jx).block_until_ready()
    if p.hips is not None:
        anp = p.anp
        # HIPS autograd's own idiom for the sigmoid (its README's)
        hg = p.hips.grad(lambda v: anp.sum(0.5 * (anp.tanh(v / 2.0) + 1) * v**2))
        systems["hips"] = lambda: hg(x)
    systems["floor"] = hand
    case = Case("W4", f"{size:.0e}".replace("+0", ""), systems, reference)
    case.floor = "hand NumPy"
    return [case]


def w5_cases(p: Peers, sizes: list[int]) -> list[Case]:
    np, torch, jax, jnp, anp = p.np, p.torch, p.jax, p.jnp, p.anp
    cases = []
    for n in sizes:
        rng = np.random.default_rng(5 + n)
        data = {"x": rng.standard_normal(n), "W": rng.standard_normal((n, n)) / n**0.5}
        x, W = data["x"], data["W"]
        text = hessian_program(n)

        def closed(x=x, W=W) -> Any:
            t = np.tanh(W @ x)
            return (W.T * (-2 * t * (1 - t * t))) @ W

        def program_path(text=text, data=data) -> Any:
            return lib_hessian(lib_run(lib_parse(text), data), "y", "x")

        prerun = lib_run(lib_parse(text), data)
        systems: dict[str, Callable[[], Any]] = {
            "gradcli": program_path,
            "gradcli-prerun": lambda run=prerun: lib_hessian(run, "y", "x"),
        }
        if p.torch is not None:
            tW, tx = torch.from_numpy(W), torch.from_numpy(x)
            th = torch.func.hessian(lambda v, tW=tW: torch.tanh(tW @ v).sum())
            systems["torch"] = lambda th=th, tx=tx: th(tx)
        if p.jax is not None:
            jW, jx = jnp.asarray(W), jnp.asarray(x)
            jh = jax.jit(jax.hessian(lambda v, jW=jW: jnp.tanh(jW @ v).sum()))
            systems["jax"] = lambda jh=jh, jx=jx: jh(jx).block_until_ready()
        if p.hips is not None:
            hh = p.hips.hessian(lambda v, W=W: anp.sum(anp.tanh(W @ v)))
            systems["hips"] = lambda hh=hh, x=x: hh(x)
        systems["floor"] = closed
        cases.append(Case("W5", f"n={n}", systems, closed()))
    return cases


# --- W1: whole processes -----------------------------------------------------------------------


def w1_case(p: Peers, env: dict[str, str], rounds: int) -> Case:
    """Start-up plus the first seed, one process per call, the systems interleaved."""
    import compileall

    np = p.np
    compileall.compile_dir(str(ROOT / "gradcli"), quiet=1)  # bytecode, as an install has it
    py = sys.executable
    cmds: dict[str, list[str]] = {"gradcli": [py, *CLI]}
    if "torch" not in p.missing:
        cmds["torch"] = [py, "-c", W1_TORCH]
    if "jax" not in p.missing:
        cmds["jax"] = [py, "-c", W1_JAX]
    if "hips" not in p.missing:
        cmds["hips"] = [py, "-c", W1_HIPS]
    cmds["floor"] = [py, "-c", "import numpy"]
    cmds["python"] = [py, "-c", "pass"]
    expected = np.full(4, 2.0)

    def runner(cmd: list[str], name: str) -> Callable[[], Any]:
        def call() -> Any:
            r = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)
            if r.returncode != 0:
                raise WrongResult(f"W1: {name} exited with {r.returncode}:\n{r.stderr[-2000:]}")
            if name in ("floor", "python"):
                return expected
            try:
                return [float(v) for v in r.stdout.split()]
            except ValueError:
                raise WrongResult(f"W1: {name} printed {r.stdout!r}") from None

        return call

    systems = {k: runner(c, k) for k, c in cmds.items()}
    case = Case("W1", "", systems, expected, floor="`import numpy`")
    measure(case, rounds, target=0.0, budget=0.0, least=rounds, most=rounds)
    return case


# === Environment ============================================================================


def single_thread_env(threads: int) -> None:
    """Must run before NumPy, torch or JAX is imported."""
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        os.environ[var] = str(threads)
    flags = os.environ.get("XLA_FLAGS", "")
    if threads == 1 and "multi_thread_eigen" not in flags:
        os.environ["XLA_FLAGS"] = (
            flags + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
        ).strip()
    os.environ.setdefault("JAX_PLATFORMS", "cpu")


def import_peers(threads: int, want: set[str]) -> Peers:
    import numpy as np

    p = Peers(np)
    if "torch" in want:
        try:
            import torch
            import torch.func  # noqa: F401

            torch.set_num_threads(threads)
            try:
                torch.set_num_interop_threads(threads)
            except RuntimeError:
                pass
            p.torch = torch
        except Exception as e:  # ImportError, or a broken install
            p.missing["torch"] = f"{type(e).__name__}: {e}"
    if "jax" in want:
        try:
            import jax
            import jax.numpy as jnp

            jax.config.update("jax_enable_x64", True)
            p.jax, p.jnp = jax, jnp
        except Exception as e:
            p.missing["jax"] = f"{type(e).__name__}: {e}"
    if "hips" in want:
        try:
            import autograd
            import autograd.numpy as anp

            p.hips, p.anp = autograd, anp
        except Exception as e:
            p.missing["hips"] = f"{type(e).__name__}: {e}"
    return p


def machine(p: Peers, threads: int, gradcli_version: str) -> list[tuple[str, str]]:
    from importlib import metadata

    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "not installed"

    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        commit = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 0
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "-"
    rows = [
        ("CPU", f"{cpu}, {os.cpu_count()} logical CPUs ({usable} usable)"),
        ("OS", platform.platform()),
        ("Python", f"{platform.python_implementation()} {platform.python_version()}"),
        ("gradcli", f"{gradcli_version} (git {commit})"),
        ("numpy", p.np.__version__),
        ("torch", p.torch.__version__ if p.torch is not None else version("torch")),
        ("jax / jaxlib", f"{version('jax')} / {version('jaxlib')}"),
        ("autograd (HIPS)", version("autograd")),
        ("threads", f"{threads} per library (BLAS, torch intra/inter-op, XLA)"),
        ("load average at start", load),
    ]
    return rows


# === Report =================================================================================


def fmt_time(s: float) -> str:
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        ms = s * 1e3
        return f"{ms:.3g} ms" if ms < 100 else f"{ms:.0f} ms"
    return f"{s * 1e6:.3g} µs"


def fmt_ratio(r: float | None) -> str:
    if r is None:
        return "—"
    return f"{r:.2f}x" if r < 10 else f"{r:.1f}x" if r < 100 else f"{r:.0f}x"


def round_ratios(case: Case, a: str, b: str) -> list[float]:
    """a / b in each round (the two timed close together)."""
    if a not in case.timings or b not in case.timings:
        return []
    return [x / y for x, y in zip(case.timings[a].samples, case.timings[b].samples)]


def ratio(case: Case, a: str, b: str) -> float | None:
    """The median over the rounds of a / b: the systems of a round ran close together, under
    the same load, so the ratio of a round is steadier than the ratio of two medians."""
    rs = round_ratios(case, a, b)
    return statistics.median(rs) if rs else None


def ratio_spread(case: Case, a: str, b: str) -> str:
    rs = round_ratios(case, a, b)
    if len(rs) < 2:
        return "—"
    q = statistics.quantiles(rs, n=4, method="inclusive")
    return f"{fmt_ratio(statistics.median(rs))} ({q[0]:.2f}-{q[2]:.2f})"


WORKLOAD_TITLES = {
    "W1": "`gradcli backward` on the first seed, whole process",
    "W2": "Jacobian of a tanh MLP, batched, through the program path",
    "W3": "chain of N elementwise steps, gradient",
    "W4": "`sum(sigmoid(x) * x**2)`, gradient",
    "W5": "Hessian of `sum(tanh(W @ x))`, batched, through the program path",
}


def summary(cases: list[Case]) -> list[str]:
    out = [
        "| workload | gradcli | vs torch | vs JAX jit | vs HIPS autograd | vs the floor |",
        "|---|---|---|---|---|---|",
    ]
    for w in sorted({c.workload for c in cases}):
        cs = [c for c in cases if c.workload == w]
        labels = " / ".join(c.label for c in cs)
        times = " / ".join(fmt_time(c.timings["gradcli"].median) for c in cs)
        if w == "W3":
            times += " (" + " / ".join(f"{per_step(c, 'gradcli'):.1f}" for c in cs) + " µs/step"
            times += "; CPU " + " / ".join(f"{cpu_step(c, 'gradcli'):.1f}" for c in cs) + ")"
        cells = [f"{w} {WORKLOAD_TITLES[w]}" + (f", {labels}" if labels else ""), times]
        for peer, _ in PEERS:
            rs = [ratio(c, "gradcli", peer) for c in cs]
            cells.append("—" if all(r is None for r in rs) else " / ".join(map(fmt_ratio, rs)))
        fl = " / ".join(fmt_ratio(ratio(c, "gradcli", "floor")) for c in cs)
        cells.append(f"{fl} {cs[0].floor}")
        out.append("| " + " | ".join(cells) + " |")
    return out


def per_step(case: Case, system: str) -> float:
    return case.timings[system].median / case.per * 1e6


def cpu_step(case: Case, system: str) -> float:
    """The median CPU time per step (µs): under load, wall times move with the other
    processes between cases measured a minute apart; CPU time shows the work itself."""
    return statistics.median(case.timings[system].cpu) / case.per * 1e6


def details(cases: list[Case]) -> list[str]:
    out: list[str] = []
    for w in sorted({c.workload for c in cases}):
        cs = [c for c in cases if c.workload == w]
        out += [
            "",
            f"**{w}** {WORKLOAD_TITLES[w]}: median per call (interquartile range / median), "
            "rounds x calls per sample",
            "",
            "| system | " + " | ".join(c.label or "time" for c in cs) + " |",
            "|---|" + "---|" * len(cs),
        ]
        systems = list(dict.fromkeys(k for c in cs for k in c.timings))
        for k in systems:
            cells = []
            for c in cs:
                t = c.timings.get(k)
                if t is None:
                    cells.append("—")
                    continue
                cell = f"{fmt_time(t.median)} (±{t.iqr * 50:.0f}%)"
                if c.per > 1:
                    cell += f", {t.median / c.per * 1e6:.2f} µs/step"
                cell += f", {len(t.samples)}x{t.inner}"
                cells.append(cell)
            name = SYSTEM_NAMES[k] + (f" ({cs[0].floor})" if k == "floor" else "")
            out.append(f"| {name} | " + " | ".join(cells) + " |")
        if any("jax" in c.timings for c in cs) and w != "W1":
            out.append(
                "| JAX first call (trace + compile) | "
                + " | ".join(
                    fmt_time(c.timings["jax"].first) if "jax" in c.timings else "—" for c in cs
                )
                + " |"
            )
        if any(c.per > 1 for c in cs):
            for k in ("gradcli", "torch"):
                if all(k in c.timings and c.timings[k].cpu for c in cs):
                    out.append(
                        f"| {SYSTEM_NAMES[k]}, CPU time per step: median | "
                        + " | ".join(f"{cpu_step(c, k):.2f} µs/step" for c in cs)
                        + " |"
                    )
        for peer in ("torch", "jax", "hips", "floor"):
            if any(peer in c.timings for c in cs):
                out.append(
                    f"| gradcli / {SYSTEM_NAMES[peer]}, per round: median (quartiles) | "
                    + " | ".join(ratio_spread(c, "gradcli", peer) for c in cs)
                    + " |"
                )
        extra = [k for k in systems if k.startswith("gradcli-")]
        for k in extra:
            for peer in ("torch", "floor"):
                rs = [ratio(c, k, peer) for c in cs]
                if any(r is not None for r in rs):
                    out.append(
                        f"| ratio: {SYSTEM_NAMES[k]} / {SYSTEM_NAMES[peer]} | "
                        + " | ".join(map(fmt_ratio, rs))
                        + " |"
                    )
        for note in dict.fromkeys(n for c in cs for n in c.notes):
            out.append(f"\n{note}")
    return out


def report(cases: list[Case], env: list[tuple[str, str]], args: argparse.Namespace) -> str:
    if hasattr(os, "getloadavg"):
        env = [*env, ("load average at end", ", ".join(f"{v:.2f}" for v in os.getloadavg()))]
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(args.started))
    mode = "--quick" if args.quick else "full"
    lines = [
        f"### Run of {stamp} ({mode}{', --reps ' + str(args.reps) if args.reps else ''})",
        "",
        "gradcli / peer (the median over the rounds of the ratio within a round), lower is "
        "better; all systems interleaved in one process (W1: one process per call), each result "
        "checked against the closed form.",
        "",
        *summary(cases),
        "",
        "| machine | |",
        "|---|---|",
        *(f"| {k} | {v} |" for k, v in env),
        *details(cases),
        "",
    ]
    return "\n".join(lines)


HEADER = """# Benchmark results

Written by `python benchmarks/run.py` (see its docstring for the method). W1-W5 are the
workloads of issue 12; the floor is closed-form or hand-written NumPy (W1: `python -c "import
numpy"`). gradcli goes through the program path (parse, run with the data as overrides, then
backward / `jacobian` / `hessian`); the "Tensor API" rows build the graph directly with
`gradcli.Tensor`, without the interpreter.

"""


# === Main ===================================================================================


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rounds, smaller sizes")
    ap.add_argument("--only", action="append", default=[], help="W1..W5 (repeatable, or W2,W5)")
    ap.add_argument("--reps", type=int, default=None, help="interleaved rounds per case")
    ap.add_argument("--threads", type=int, default=1, help="threads per library (default 1)")
    ap.add_argument("--output", type=Path, default=RESULTS, help="the Markdown file to write")
    ap.add_argument("--append", action="store_true", help="append this run to --output")
    ap.add_argument("--no-write", action="store_true", help="print only")
    ap.add_argument(
        "--skip", action="append", default=[], help="leave a peer out: torch, jax, hips"
    )
    args = ap.parse_args()
    only = {w.strip().upper() for o in args.only for w in o.split(",") if w.strip()}
    unknown = only - set(WORKLOAD_TITLES)
    if unknown:
        ap.error(f"unknown workload {', '.join(sorted(unknown))}: choose from W1..W5")
    workloads = sorted(only or WORKLOAD_TITLES)

    args.started = time.time()
    single_thread_env(args.threads)
    started = time.perf_counter()
    gradcli_version = gradcli_import()
    want = {"torch", "jax", "hips"} - set(args.skip)
    p = import_peers(args.threads, want)
    for k in sorted({"torch", "jax", "hips"} - want):
        p.missing[k] = "left out (--skip)"
    env_rows = machine(p, args.threads, gradcli_version)
    for k, why in p.missing.items():
        print(f"{SYSTEM_NAMES[k]}: not run ({why.splitlines()[0]})", file=sys.stderr)

    quick = args.quick
    target = 0.002 if quick else 0.02
    budget = 4.0 if quick else 40.0
    least, most = (2, 3) if quick else (5, 15)
    rounds = args.reps

    cases: list[Case] = []
    builders: dict[str, Callable[[], list[Case]]] = {
        "W2": lambda: w2_cases(p, QUICK_MLP_SIZES if quick else MLP_SIZES),
        "W3": lambda: w3_cases(p, QUICK_CHAIN_LENGTHS if quick else CHAIN_LENGTHS),
        "W4": lambda: w4_cases(p, QUICK_W4_SIZE if quick else W4_SIZE),
        "W5": lambda: w5_cases(p, HESSIAN_SIZES),
    }
    gc.collect()
    gc.freeze()
    try:
        if "W1" in workloads:
            env = dict(os.environ)
            env.pop("PYTHONDONTWRITEBYTECODE", None)  # .pyc files cached, as an install does
            print("W1 ...", file=sys.stderr, flush=True)
            cases.append(w1_case(p, env, rounds or (2 if quick else 15)))
        for w in workloads:
            if w == "W1":
                continue
            for case in builders[w]():
                print(f"{w} {case.label} ...", file=sys.stderr, flush=True)
                measure(case, rounds, target, budget, least, most)
                cases.append(case)
                case.systems = {}  # free the data
    except WrongResult as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    text = report(cases, env_rows, args)
    print(text)
    print(f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    if not args.no_write:
        if args.append and args.output.exists():
            with open(args.output, "a") as fh:
                fh.write("\n" + text)
        else:
            args.output.write_text(HEADER + text)
        print(f"written to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
