"""Start-up time of `gradcli backward` on a small program, against `python -c "import numpy"`.

The bar: at most 1.5x the time of importing NumPy (most of what a CLI user waits for is
start-up). Output goes to a pipe, as in scripts, so rich is not imported.

    python benchmarks/startup.py [--runs 30]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], runs: int, env: dict[str, str]) -> list[float]:
    subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, check=True)  # warm caches
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, check=True)
        out.append(time.perf_counter() - t)
    return out


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
        "gradcli backward examples/mlp.py": [gradcli, "backward", "examples/mlp.py"],
        "gradcli backward (table, rich)": [
            gradcli,
            "backward",
            "examples/mlp.py",
            "--format",
            "table",
        ],
        "gradcli --help": [gradcli, "--help"],
    }
    results = {name: statistics.median(timed(cmd, args.runs, env)) for name, cmd in cases.items()}
    base = results["python -c 'import numpy'"]
    print(f"{'command':40} {'median ms':>10} {'x numpy':>8}")
    for name, t in results.items():
        print(f"{name:40} {t * 1000:10.1f} {t / base:8.2f}")


if __name__ == "__main__":
    main()
