"""Start-up time of `gradcli backward` on a small program, against `python -c "import numpy"`.

The bar: at most 1.5x the time of importing NumPy (most of what a CLI user waits for is
start-up). Output goes to a pipe, as in scripts, so rich is not imported. Bytecode is cached
(PYTHONDONTWRITEBYTECODE is dropped), as an install has it.

The machine is shared, so the commands are interleaved: each round runs every command once,
and a ratio is the median over the rounds of the ratio within a round (both ran under the same
load). Also reported: the CPU time (user + system) of each process, the least over the rounds,
and its ratio; CPU time counts the work done, not the waiting for a busy core, so it moves
much less with the load than the wall clock does.

    python benchmarks/startup.py [--runs 30]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed_once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of `cmd`."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, check=True)
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # let .pyc files be cached, as an install does
    gradcli = shutil.which("gradcli", path=str(Path(sys.executable).parent)) or "gradcli"
    cases = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import numpy'": [sys.executable, "-c", "import numpy"],
        # gradcli's CLI asks OpenBLAS for one thread (gradcli/__main__.py): the floor it has
        "  the same, one OpenBLAS thread": [
            sys.executable,
            "-c",
            "import os; os.environ['OPENBLAS_NUM_THREADS'] = '1'; import numpy",
        ],
        "gradcli backward examples/mlp.py": [gradcli, "backward", "examples/mlp.py"],
        "gradcli backward (table, rich)": [
            gradcli,
            "backward",
            "examples/mlp.py",
            "--format",
            "table",
        ],
        "gradcli run examples/mlp.py": [gradcli, "run", "examples/mlp.py"],
        "gradcli --help": [gradcli, "--help"],
    }
    for cmd in cases.values():
        subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, check=True)  # warm caches
    wall: dict[str, list[float]] = {name: [] for name in cases}
    cpu: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.runs):
        for name, cmd in cases.items():
            w, c = timed_once(cmd, env)
            wall[name].append(w)
            cpu[name].append(c)
    base = "python -c 'import numpy'"
    print(f"{'command':36} {'median ms':>9} {'x numpy':>8}   {'CPU ms':>7} {'x numpy':>8}")
    for name in cases:
        ratio = statistics.median(w / b for w, b in zip(wall[name], wall[base]))
        cpu_ratio = min(cpu[name]) / min(cpu[base])
        print(
            f"{name:36} {statistics.median(wall[name]) * 1000:9.1f} {ratio:8.2f}   "
            f"{min(cpu[name]) * 1000:7.1f} {cpu_ratio:8.2f}"
        )


if __name__ == "__main__":
    main()
