"""F.softshrink / F.hardshrink as PyTorch's CPU kernels compute them: the vector loop (whole
AVX512 vectors from the start, 16 floats or 8 doubles, in memory order) gives +0.0 inside the band
and drops the gradient at NaN; the scalar tail gives x * 0 (-0.0 for a negative x) and passes the
gradient at NaN. The expected text is PyTorch 2.13's output of the program (recorded with
/work/torchenv), over lengths that put the same values in either loop."""

from __future__ import annotations

from gradcli.lang.program import parse

PROGRAM = """\
import torch
import torch.nn.functional as F
for dt in (torch.float32, torch.float64):
    for n in (3, 11, 16, 31, 40):
        values = [-0.25, float("nan"), -0.5, 0.5, 0.75, -0.75, 0.0, -0.0, 1e-3, -2.0]
        base = torch.tensor(values, dtype=dt)
        x = base.repeat(5)[:n].clone().requires_grad_(True)
        a = F.softshrink(x, 0.5)
        b = F.hardshrink(x, 0.5)
        (a * torch.arange(n) + b).sum().backward()
        signs = ''.join('-' if v else '+' for v in torch.signbit(a).tolist())
        print(dt, n, signs, a.isnan().sum().item())
        signs = ''.join('-' if v else '+' for v in torch.signbit(b).tolist())
        print(signs, x.grad.isnan().sum().item(), x.grad.sum().item())
        y = x.detach().reshape(-1, 1).expand(n, 2).t().contiguous().t()
        z = F.softshrink(y, 0.5)
        print(''.join('-' if v else '+' for v in torch.signbit(z).flatten().tolist()))
"""
PYTORCH = """\
torch.float32 3 -+- 1
+++ 0 2.0
--++--
torch.float32 11 -+-++-+-+-- 1
+++++-+++-+ 0 23.0
++++++++++--+++-++--+-
torch.float32 16 +++++-+++-+++++- 2
+++++-+++-+++++- 0 52.0
++++++++++--++++++--++++++++++--
torch.float32 31 +++++-+++-+++++-+-+--+-++-+-+-- 3
+++++-+++-+++++-+++-+++++-+++-+ 0 175.0
++++++++++--++++++--++++++++++--+++-++--+-+++-++++--+++-++--+-
torch.float32 40 +++++-+++-+++++-+++-+++++-+++-++-++-+-+- 4
+++++-+++-+++++-+++-+++++-+++-+++++-+++- 0 264.0
++++++++++--++++++--++++++++++--++++++--++++++++++--++++++--++++++++++--++++++--
torch.float64 3 -+- 1
+++ 0 2.0
--++--
torch.float64 11 +++++-+++-- 1
+++++-+++-+ 0 21.0
++++++++++--+++-++--+-
torch.float64 16 +++++-+++-+++++- 2
+++++-+++-+++++- 0 52.0
++++++++++--++++++--++++++++++--
torch.float64 31 +++++-+++-+++++-+++-+++++-+-+-- 3
+++++-+++-+++++-+++-+++++-+++-+ 0 153.0
++++++++++--++++++--++++++++++--++++++--++++++++++--+++-++--+-
torch.float64 40 +++++-+++-+++++-+++-+++++-+++-+++++-+++- 4
+++++-+++-+++++-+++-+++++-+++-+++++-+++- 0 264.0
++++++++++--++++++--++++++++++--++++++--++++++++++--++++++--++++++++++--++++++--
"""


def test_shrink_signs_of_zero_nan_and_gradients_by_loop() -> None:
    assert "".join(parse(PROGRAM, "t.py").run(dtype="float32").output) == PYTORCH
