"""Long training loops of small float32 tensors, this tree against another (`--before DIR`):
the CPU time of a step, per loop, with the printed lines checked equal.

Tutorials run 1,000-30,000 steps of tiny models, and gradcli's 60 s CPU limit bounds a run:
there the cost of a step is the fixed cost of each op (the interpreter, dispatch, the recorded
graph, the backward walk) and of the NumPy calls of the exact float32 kernels on a few
elements. The loops (`LOOPS`): `xor_ce` a 2-3-2 sigmoid MLP (a Module subclass) with
CrossEntropyLoss and SGD; `manual` a linear model by hand, `(y_pred - y).pow(2).sum()`,
`w -= lr * w.grad` and `w.grad.zero_()` under no_grad; `adam1` nn.Linear(1, 1) with MSELoss
and Adam; `seq_mse` nn.Sequential(Linear(1, 10), ReLU, Linear(10, 1)) on 50 points with
MSELoss and SGD; `logreg` a logistic regression (Linear(2, 1), Sigmoid, BCELoss).

Each tree runs each loop in a fresh process (one library thread, `Program.run` in-process,
parsed once, after a warm-up of 20 steps) and reports the process's CPU time a step; the trees
alternate round by round (this, before, this, before...; the first tree of a round rotates),
and the ratio reported is the median of the per-round ratios (both ran under the same load:
the machine is shared, absolute times move by 2x, ratios much less). No torch is needed.

    python benchmarks/training_loops.py --before DIR [--steps 300] [--rounds 5] [--loops all]

(DIR holds a `gradcli` package: `git archive REV gradcli | tar -x -C DIR`.)
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

LOOPS = {
    "xor_ce": """\
import torch
import torch.nn as nn

torch.manual_seed(0)


class TinyNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(2, 3)
        self.act = nn.Sigmoid()
        self.out = nn.Linear(3, 2)

    def forward(self, x):
        return self.out(self.act(self.hidden(x)))


inputs = torch.FloatTensor([[0, 0], [0, 1], [1, 0], [1, 1]])
labels = torch.LongTensor([0, 1, 1, 0])
net = TinyNet()
loss_fn = nn.CrossEntropyLoss()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for epoch in range(STEPS):
    logits = net(inputs)
    loss = loss_fn(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 100 == 0:
        print(epoch, loss.item())
""",
    "manual": """\
import torch

torch.manual_seed(0)
x = torch.randn(10, 1)
y = 2 * x + 1
w = torch.randn(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
learning_rate = 1e-2
for t in range(STEPS):
    y_pred = x.mm(w) + b
    loss = (y_pred - y).pow(2).sum()
    if t % 100 == 99:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        w -= learning_rate * w.grad
        b -= learning_rate * b.grad
        w.grad.zero_()
        b.grad.zero_()
print(w, b)
""",
    "adam1": """\
import torch
import torch.nn as nn

torch.manual_seed(42)
X = torch.arange(0, 5, 0.25).view(-1, 1)
Y = -3 * X + 4 + 0.2 * torch.randn(X.size())
model = nn.Linear(1, 1)
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
criterion = nn.MSELoss()
for epoch in range(STEPS):
    optimizer.zero_grad()
    loss = criterion(model(X), Y)
    loss.backward()
    optimizer.step()
    if epoch % 100 == 0:
        print(f"epoch {epoch}: loss = {loss.item():.4f}")
print(model.weight, model.bias)
""",
    "seq_mse": """\
import torch
import torch.nn as nn

torch.manual_seed(1)
x = torch.linspace(-1, 1, 50).unsqueeze(1)
y = x.pow(3) - 0.5 * x + 0.05 * torch.randn(x.size())
net = nn.Sequential(nn.Linear(1, 10), nn.ReLU(), nn.Linear(10, 1))
optimizer = torch.optim.SGD(net.parameters(), lr=0.2)
loss_func = nn.MSELoss()
for t in range(STEPS):
    prediction = net(x)
    loss = loss_func(prediction, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if t % 100 == 0:
        print(t, loss.item())
print(loss.item())
""",
    "logreg": """\
import torch

torch.manual_seed(2)
X = torch.randn(8, 2)
y = (X[:, 0] + X[:, 1] > 0).float().view(-1, 1)
model = torch.nn.Sequential(torch.nn.Linear(2, 1), torch.nn.Sigmoid())
criterion = torch.nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(STEPS):
    y_hat = model(X)
    loss = criterion(y_hat, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if (epoch + 1) % 100 == 0:
        print(f"Epoch {epoch + 1}, Loss: {loss.item():.4f}")
""",
}

# Run in the child: the program's text on stdin, the step count in argv; prints the printed
# lines, then a last line with the CPU seconds a step.
_CHILD = """\
import os, sys, time
for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = "1"
os.environ["GRADCLI_TIME_SECONDS"] = "3600"
from gradcli.lang.program import parse
text, n = sys.stdin.read(), int(sys.argv[1])
parse(text.replace("STEPS", "20"), "warm.py").run(echo=lambda s: None, dtype="float32")
out = []
prog = parse(text.replace("STEPS", str(n)), "loop.py")
t = time.process_time()
prog.run(echo=out.append, dtype="float32")
cpu = time.process_time() - t
sys.stdout.write("".join(out))
print(cpu / n)
"""


def _run(tree: str, program: str, steps: int) -> tuple[str, float]:
    env = {**os.environ, "PYTHONPATH": tree}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(steps)],
        input=program,
        capture_output=True,
        text=True,
        env=env,
        check=True,
        cwd=tree,  # (`-c` puts the working directory first on sys.path)
    )
    *lines, last = done.stdout.splitlines()
    return "\n".join(lines), float(last)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, required=True, help="another tree holding gradcli")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--loops", default="all", help=f"comma-separated, of {', '.join(LOOPS)}")
    args = ap.parse_args()
    names = list(LOOPS) if args.loops == "all" else args.loops.split(",")
    for name in names:
        if name not in LOOPS:
            sys.exit(f"no loop {name!r}: {', '.join(LOOPS)}")
    trees = {"this": str(HERE.parent), "before": str(args.before.resolve())}
    print(f"{args.steps} steps, {args.rounds} rounds; CPU ms a step (median), this / before")
    print(f"{'loop':10} {'this':>8} {'before':>8} {'ratio':>6} {'quartiles':>12}")
    for name in names:
        times: dict[str, list[float]] = {t: [] for t in trees}
        for r in range(args.rounds):
            order = list(trees) if r % 2 == 0 else list(trees)[::-1]
            printed = {}
            for t in order:
                printed[t], cpu = _run(trees[t], LOOPS[name], args.steps)
                times[t].append(cpu)
            if printed["this"] != printed["before"]:
                sys.exit(f"{name}: the printed lines differ between the trees")
        ratios = [a / b for a, b in zip(times["this"], times["before"])]
        q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        print(
            f"{name:10} {statistics.median(times['this']) * 1e3:8.3f} "
            f"{statistics.median(times['before']) * 1e3:8.3f} {statistics.median(ratios):6.2f}"
            f"  {q[0]:.2f}-{q[2]:.2f}"
        )


if __name__ == "__main__":
    main()
