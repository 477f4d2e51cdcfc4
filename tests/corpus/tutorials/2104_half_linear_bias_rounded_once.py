# Mixed precision by hand: a small float16 model, the bias added inside the product's float32
# accumulation (one rounding), as a CPU half-precision addmm does.
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def ramp(n, m, dtype):
    return (torch.arange(n * m, dtype=dtype) / (n * m)).reshape(m, n).T


x = ramp(8, 8, torch.float16)
W = ramp(8, 3, torch.float16).T
b = ramp(1, 3, torch.float16)[0]
print(F.linear(x, W, b)[3])
print(torch.addmm(b, x, W.T)[6])

layer = torch.nn.Linear(6, 4).half()
inp = torch.linspace(-1, 1, 12).reshape(2, 6).half()
print(layer(inp))

for m, k, n in [(4, 3, 2), (5, 2, 3)]:
    a = (torch.randn(m, k) * 3).half()
    w = torch.randn(n, k).half()
    c = (torch.randn(n) * 4).half()
    out = F.linear(a, w, c)
    print(m, k, n, out.float().sum().item(), out[0].tolist())
    print(torch.equal(out, torch.addmm(c, a, w.T)))
