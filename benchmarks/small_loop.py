"""Small float32 training loops, epoch by epoch: gradcli against PyTorch (issue 12's speed,
issue 10's "paste and run": a tutorial's 10,001 epochs must fit the time limit of a trial).

The programs (`--programs`, see PROGRAMS): the XOR tutorial's 2-10-10-10-1 sigmoid MLP with
BCELoss and SGD (the default), a 2-2-1 XOR MLP with MSELoss and SGD with momentum, a linear
regression by hand under no_grad, a 1-16-1 tanh net with Adam on 100 points, a Module subclass
calling F.relu. Each contender runs the whole program with
`--epochs` epochs in a subprocess of its own (a fresh interpreter, one library thread) and
reports the process's CPU time per epoch (on a shared machine the wall clock mostly measures
the other processes); the contenders alternate round by round (A, B, C, A, B, C, ...) and the
medians of the per-round ratios to torch are reported. gradcli runs the program in-process with
the library (`Program.run`), parsed once, after a warm-up of 20 epochs (lazy imports).

--before DIR adds another gradcli tree (e.g. `git worktree` of the commit to compare with, or
`git archive REV gradcli | tar -x -C DIR`) as a contender; every gradcli contender's printed
lines must equal torch's.

    python benchmarks/small_loop.py [--epochs 500] [--rounds 5] [--before DIR]
        [--programs xor10,xor221,linreg,adam,custom | all]
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

# The loops, each a tutorial's shape (EPOCHS replaced by the epoch count): `xor10` the XOR
# tutorial's 2-10-10-10-1 sigmoids with BCELoss and SGD; `xor221` the 2-2-1 sigmoid MLP with
# MSELoss and SGD with momentum; `linreg` a linear regression by hand (`w -= lr * w.grad` under
# no_grad); `adam` a 1-16-1 tanh net fitting sin on 100 points with Adam; `custom` a Module
# subclass whose forward calls F.relu, F.mse_loss, SGD.
PROGRAMS = {
    "xor10": """\
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
""",
    "xor221": """\
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.tensor([[0., 0.], [0., 1.], [1., 0.], [1., 1.]])
Y = torch.tensor([[0.], [1.], [1.], [0.]])
model = nn.Sequential(nn.Linear(2, 2), nn.Sigmoid(), nn.Linear(2, 1), nn.Sigmoid())
criterion = nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(EPOCHS):
    optimizer.zero_grad()
    out = model(X)
    loss = criterion(out, Y)
    loss.backward()
    optimizer.step()
    if epoch % 1000 == 0:
        print(f"Epoch {epoch}, loss {loss.item():.6f}")
print(model(X))
""",
    "linreg": """\
import torch

torch.manual_seed(1)
x = torch.linspace(0, 1, 20).unsqueeze(1)
y = 3 * x + 2 + 0.1 * torch.randn(20, 1)
w = torch.zeros(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1
for step in range(EPOCHS):
    pred = x * w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= lr * w.grad
        b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if step % 100 == 0:
        print(step, loss.item())
print(w, b)
""",
    "adam": """\
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.linspace(-3, 3, 100).reshape(-1, 1)
y = torch.sin(x)
net = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.Adam(net.parameters(), lr=0.01)
loss_fn = nn.MSELoss()
for i in range(EPOCHS):
    opt.zero_grad()
    loss = loss_fn(net(x), y)
    loss.backward()
    opt.step()
    if i % 100 == 0:
        print(i, round(loss.item(), 6))
print(loss)
""",
    "custom": """\
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(3, 8)
        self.fc2 = nn.Linear(8, 1)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        return self.fc2(x)


net = Net()
x = torch.randn(32, 3)
y = x.sum(dim=1, keepdim=True)
opt = torch.optim.SGD(net.parameters(), lr=0.01)
for epoch in range(EPOCHS):
    out = net(x)
    loss = F.mse_loss(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 100 == 0:
        print(epoch, loss.item())
print(loss)
""",
    "lstm": """\
import torch
import torch.nn as nn

torch.manual_seed(0)


class BiLSTM(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(input_size=2, hidden_size=8, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(16, 1)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1, :])


model = BiLSTM()
x = torch.randn(16, 6, 2)
y = torch.sin(x.sum(dim=(1, 2))).unsqueeze(1)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(EPOCHS):
    optimizer.zero_grad()
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    if epoch % 100 == 0:
        print(f"{epoch} {loss.item():.4f}")
print(f"{loss.item():.4f}")
""",
    "pinn64": """\
import math
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
net = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))
x = torch.linspace(0, 1, 32).reshape(-1, 1).requires_grad_(True)
xb = torch.tensor([[0.0], [1.0]])
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for epoch in range(EPOCHS):
    opt.zero_grad()
    u = net(x)
    du = torch.autograd.grad(u, x, torch.ones_like(u), create_graph=True)[0]
    d2u = torch.autograd.grad(du, x, torch.ones_like(du), create_graph=True)[0]
    f = d2u + math.pi ** 2 * torch.sin(math.pi * x)
    loss = (f ** 2).mean() + (net(xb) ** 2).mean()
    loss.backward()
    opt.step()
    if epoch % 100 == 0:
        print(epoch, loss.item())
print(loss)
""",
    "gru": """\
import torch
import torch.nn as nn

torch.manual_seed(0)
cell = nn.GRUCell(3, 12)
head = nn.Linear(12, 1)
params = list(cell.parameters()) + list(head.parameters())
opt = torch.optim.SGD(params, lr=0.05)
seq = torch.randn(8, 5, 3)
target = seq.mean(dim=(0, 2)).unsqueeze(1)
for epoch in range(EPOCHS):
    h = torch.zeros(5, 12)
    for t in range(seq.shape[0]):
        h = cell(seq[t], h)
    loss = ((head(h) - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % 100 == 0:
        print(epoch, loss.item())
print(loss)
""",
}

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


def _run(python: str, child: str, program: str, epochs: int, path: str | None) -> tuple[str, float]:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = path
    done = subprocess.run(
        [python, "-c", child, str(epochs)],
        input=program,
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
    ap.add_argument(
        "--programs",
        default="xor10",
        help=f"comma-separated, of {', '.join(PROGRAMS)} (or all)",
    )
    args = ap.parse_args()
    names = list(PROGRAMS) if args.programs == "all" else args.programs.split(",")
    for name in names:
        if name not in PROGRAMS:
            sys.exit(f"no program {name!r}: {', '.join(PROGRAMS)}")
    trees = {"gradcli": str(HERE.parent)}
    if args.before is not None:
        trees["before"] = str(args.before.resolve())
    for name in names:
        _measure(name, PROGRAMS[name], args.epochs, args.rounds, trees)


def _measure(
    program_name: str, program: str, epochs: int, rounds: int, trees: dict[str, str]
) -> None:
    times: dict[str, list[float]] = {name: [] for name in [*trees, "torch"]}
    for _ in range(rounds):
        want, t = _run(TORCH_PYTHON, _TORCH_CHILD, program, epochs, None)
        times["torch"].append(t)
        for name, tree in trees.items():
            got, t = _run(sys.executable, _GRADCLI_CHILD, program, epochs, tree)
            if got != want:
                sys.exit(f"{name}: the printed lines differ from torch's:\n{got}\n---\n{want}")
            times[name].append(t)
    print(f"{program_name}: {epochs} epochs, {rounds} rounds, CPU time per epoch (median):")
    for name, ts in times.items():
        ratios = [t / b for t, b in zip(ts, times["torch"])]
        q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
        print(
            f"  {name:8s} {statistics.median(ts) * 1e6:8.1f} us"
            f"  x torch {statistics.median(ratios):5.2f} ({q[0]:.2f}-{q[2]:.2f})"
        )
    if "before" in times:
        r = [a / b for a, b in zip(times["gradcli"], times["before"])]
        print(f"  gradcli / before: {statistics.median(r):.2f}")


if __name__ == "__main__":
    main()
