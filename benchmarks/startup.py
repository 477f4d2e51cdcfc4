"""Start-up time of `gradcli backward` on a small program, against `python -c "import numpy"`.

Issue 12's bar: keep `gradcli backward` at or under 1.34x / 1.38x / 1.51x the time of importing
NumPy for --format json / plain / table (most of what a CLI user waits for is start-up). Output
goes to a pipe, as in scripts. Bytecode is cached (PYTHONDONTWRITEBYTECODE is dropped, and the
trees are compiled first), as an install has it.

The machine is shared, so the commands are interleaved: each round runs every command once,
and a ratio is the median over the rounds of the ratio within a round (both ran under the same
load), with the quartiles of those per-round ratios. Both wall-clock and CPU time (user +
system of the child) are reported; CPU time counts the work done, not the waiting for a busy
core, so it moves much less with the load than the wall clock does.

`--before DIR` adds the same gradcli commands run from another checkout's tree (a directory
holding a `gradcli` package, e.g. made with `git archive OLD gradcli | tar -x -C DIR`),
interleaved with this one's. Every process runs in an empty directory (`python -c` puts the
current directory first on the path, as a console script does not: run from a checkout, it
would import that checkout's gradcli whatever PYTHONPATH says).

    python benchmarks/startup.py [--runs 30] [--before DIR] [--quick] [--program FILE]
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What the console script runs (`gradcli = "gradcli.__main__:main"`), with the tree chosen by
# PYTHONPATH.
CLI = "import sys; from gradcli.__main__ import main; sys.exit(main())"
PROGRAM = str(ROOT / "examples" / "mlp.py")
CWD = tempfile.mkdtemp(prefix="gradcli-startup-")  # nothing importable here


def timed_once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of `cmd`."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=CWD, capture_output=True, check=True)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def quartiles(xs: list[float]) -> tuple[float, float, float]:
    q1, q2, q3 = statistics.quantiles(xs, n=4)
    return q1, q2, q3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--before", type=Path, help="another tree's directory holding `gradcli`")
    ap.add_argument("--quick", action="store_true", help="only the three backward formats")
    ap.add_argument("--program", default=PROGRAM, help="the program (default examples/mlp.py)")
    args = ap.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # let .pyc files be cached, as an install does
    py = sys.executable
    gradcli = [
        ("", {**env, "PYTHONPATH": str(ROOT)}),
    ]
    if args.before:
        gradcli.append((" (before)", {**env, "PYTHONPATH": str(args.before.resolve())}))
    for _, e in gradcli:
        compileall.compile_dir(e["PYTHONPATH"] + "/gradcli", quiet=1)
    program = str(Path(args.program).resolve())
    commands = {
        "backward --format json": ["backward", program, "--format", "json"],
        "backward --format plain": ["backward", program, "--format", "plain"],
        "backward --format table": ["backward", program, "--format", "table"],
    }
    if not args.quick:
        commands["run"] = ["run", program]
        commands["--help"] = ["--help"]
    cases: dict[str, tuple[list[str], dict[str, str]]] = {
        "python -c pass": ([py, "-c", "pass"], env),
        "python -c 'import numpy'": ([py, "-c", "import numpy"], env),
        # gradcli's CLI asks OpenBLAS for one thread (gradcli/__main__.py): the floor it has
        "  the same, one OpenBLAS thread": (
            [py, "-c", "import numpy"],
            {**env, "OPENBLAS_NUM_THREADS": "1"},
        ),
    }
    for name, argv in commands.items():
        for tag, e in gradcli:
            cases[f"gradcli {name}{tag}"] = ([py, "-c", CLI, *argv], e)
    for cmd, e in cases.values():
        subprocess.run(cmd, env=e, cwd=CWD, capture_output=True, check=True)  # warm caches
    wall: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    names = list(cases)
    for r in range(args.runs):
        for name in names[r % len(names) :] + names[: r % len(names)]:  # the order rotates
            w, c = timed_once(*cases[name])
            wall[name].append(w)
            cpu[name].append(c)
    base = "python -c 'import numpy'"
    print(f"{args.runs} rounds; x numpy: median of the per-round ratios [quartiles]")
    print(
        f"{'command':38} {'wall ms':>7} {'x numpy (wall)':>20}   "
        f"{'CPU ms':>6} {'x numpy (CPU)':>20}"
    )
    for name in cases:
        w = quartiles([a / b for a, b in zip(wall[name], wall[base])])
        c = quartiles([a / b for a, b in zip(cpu[name], cpu[base])])
        print(
            f"{name:38} {statistics.median(wall[name]) * 1000:7.1f} "
            f"{w[1]:6.2f} [{w[0]:.2f}-{w[2]:.2f}]   "
            f"{statistics.median(cpu[name]) * 1000:6.1f} {c[1]:6.2f} [{c[0]:.2f}-{c[2]:.2f}]"
        )
    if args.before:
        print("\nthis tree / the --before tree, median of the per-round ratios [quartiles]")
        print(f"{'command':38} {'wall':>20}   {'CPU':>20}")
        for name in commands:
            now, old = f"gradcli {name}", f"gradcli {name} (before)"
            w = quartiles([a / b for a, b in zip(wall[now], wall[old])])
            c = quartiles([a / b for a, b in zip(cpu[now], cpu[old])])
            print(
                f"{now:38} {w[1]:7.2f} [{w[0]:.2f}-{w[2]:.2f}]   "
                f"{c[1]:7.2f} [{c[0]:.2f}-{c[2]:.2f}]"
            )


if __name__ == "__main__":
    main()
