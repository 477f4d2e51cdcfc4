# torch.addmm and F.linear check their operands' dtypes as ATen does (the added tensor against
# mat2 first, then mat1 against mat2), and take complex matrices with complex beta / alpha.
import torch
import torch.nn.functional as F

torch.manual_seed(5)
cases = [
    (torch.float64, torch.float32, torch.float64),
    (torch.float64, torch.float32, torch.float32),
    (torch.float32, torch.float32, torch.float64),
    (torch.float32, torch.complex64, torch.complex64),
]
for xd, wd, bd in cases:
    x = torch.ones(2, 3, dtype=xd)
    w = torch.ones(4, 3, dtype=wd)
    b = torch.ones(4, dtype=bd)
    for name, call in (
        ("linear", lambda: F.linear(x, w, b)),
        ("addmm", lambda: torch.addmm(b, x, w.t())),
    ):
        try:
            call()
        except RuntimeError as e:
            print(name, "RuntimeError:", e)

m = torch.ones(2, 2, dtype=torch.float64)
try:
    torch.addmm(torch.tensor(1.0), m, m)
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.addmm(torch.tensor([1.0, 2.0], dtype=torch.float64), m, m, beta=3))

A = torch.randn(3, 2, dtype=torch.cfloat, requires_grad=True)
B = torch.randn(2, 4, dtype=torch.cfloat)
C = torch.randn(4, dtype=torch.cfloat, requires_grad=True)
out = torch.addmm(C, A, B, beta=0.5, alpha=2 - 1j)
print(out)
out.abs().pow(2).sum().backward()
print(A.grad)
print(C.grad)
print(C.addmm(A.detach(), B))
