"""A small float32 training loop, epoch by epoch: gradcli against PyTorch (issue 12's speed,
issue 10's "paste and run": a tutorial's 10,001 epochs must fit the time limit of a trial).

The program is the XOR tutorial's shape: a 2-10-10-10-1 MLP of sigmoids on 4 samples, BCELoss,
SGD with lr=1, a line printed every 100 epochs. Each contender runs the whole program with
`--epochs` epochs in a subprocess of its own (a fresh interpreter, one library thread) and
reports the process's CPU time per epoch (on a shared machine the wall clock mostly measures
the other processes); the contenders alternate round by round (A, B, C, A, B, C, ...) and the
medians of the per-round ratios to torch are reported. gradcli runs the program in-process with
the library (`Program.run`), parsed once, after a warm-up of 20 epochs (lazy imports).

--before DIR adds another gradcli tree (e.g. `git worktree` of the commit to compare with, or
`git archive REV gradcli | tar -x -C DIR`) as a contender; every gradcli contender's printed
lines must equal torch's.

    python benchmarks/small_loop.py [--epochs 500] [--rounds 5] [--before DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TORCH_PYTHON = os.environ.get("TORCH_PYTHON", "/work/torchenv/bin/python")

PROGRAM = """\
import torch
import torch.nn as nn

torch.manual_seed(777)
inputs = torch.FloatTensor([[0, 0], [0, 1], [1, 0], [1, 1]])
labels = torch.FloatTensor([[0], [1], [1], [0]])
net = nn.Sequential(
    nn.Linear(2, 10), nn.Sigmoid(),
    nn.Linear(10, 10), nn.Sigmoid(),
    nn.Linear(10, 10), nn.Sigmoid(),
    nn.Linear(10, 1), nn.Sigmoid(),
)
loss_fn = nn.BCELoss()
opt = torch.optim.SGD(net.parameters(), lr=1)
for epoch in range(EPOCHS):
    opt.zero_grad()
    loss = loss_fn(net(inputs), labels)
    loss.backward()
    opt.step()
    if epoch % 100 == 0:
        print(epoch, loss.item())
"""

# Run in the child: the program's text on stdin, the epoch count in argv; prints the printed
# lines, then a last line with the CPU seconds per epoch.
_GRADCLI_CHILD = """\
import os, sys, time
for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = "1"
os.environ["GRADCLI_TIME_SECONDS"] = "3600"
from gradcli.lang.program import parse
text, n = sys.stdin.read(), int(sys.argv[1])
parse(text.replace("EPOCHS", "20"), "warm.py").run(echo=lambda s: None, dtype="float32")
out = []
prog = parse(text.replace("EPOCHS", str(n)), "loop.py")
t = time.process_time()
prog.run(echo=out.append, dtype="float32")
cpu = time.process_time() - t
sys.stdout.write("".join(out))
print(cpu / n)
"""

_TORCH_CHILD = """\
import contextlib, io, os, sys, time
for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = "1"
import torch
torch.set_num_threads(1)
text, n = sys.stdin.read(), int(sys.argv[1])
with contextlib.redirect_stdout(io.StringIO()):
    exec(compile(text.replace("EPOCHS", "20"), "warm.py", "exec"), {"__name__": "warm"})
buf = io.StringIO()
t = time.process_time()
with contextlib.redirect_stdout(buf):
    exec(compile(text.replace("EPOCHS", str(n)), "loop.py", "exec"), {"__name__": "loop"})
cpu = time.process_time() - t
sys.stdout.write(buf.getvalue())
print(cpu / n)
"""


def _run(python: str, child: str, epochs: int, path: str | None) -> tuple[str, float]:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = path
    done = subprocess.run(
        [python, "-c", child, str(epochs)],
        input=PROGRAM,
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=path or "/",  # (`-c` puts the working directory first on sys.path)
    )
    *lines, last = done.stdout.splitlines()
    return "\n".join(lines), float(last)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--epochs", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--before", type=Path, default=None, help="another gradcli tree")
    args = ap.parse_args()
    trees = {"gradcli": str(HERE.parent)}
    if args.before is not None:
        trees["before"] = str(args.before.resolve())
    times: dict[str, list[float]] = {name: [] for name in [*trees, "torch"]}
    for _ in range(args.rounds):
        want, t = _run(TORCH_PYTHON, _TORCH_CHILD, args.epochs, None)
        times["torch"].append(t)
        for name, tree in trees.items():
            got, t = _run(sys.executable, _GRADCLI_CHILD, args.epochs, tree)
            if got != want:
                sys.exit(f"{name}: the printed lines differ from torch's:\n{got}\n---\n{want}")
            times[name].append(t)
    print(f"{args.epochs} epochs, {args.rounds} rounds, CPU time per epoch (median):")
    for name, ts in times.items():
        ratios = [t / b for t, b in zip(ts, times["torch"])]
        q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        print(
            f"  {name:8s} {statistics.median(ts) * 1e3:7.3f} ms"
            f"  x torch {statistics.median(ratios):5.2f} ({q[0]:.2f}-{q[2]:.2f})"
        )
    if "before" in times:
        r = [a / b for a, b in zip(times["gradcli"], times["before"])]
        print(f"  gradcli / before: {statistics.median(r):.2f}")


if __name__ == "__main__":
    main()
