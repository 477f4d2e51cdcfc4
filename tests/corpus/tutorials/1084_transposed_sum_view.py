# Why does .view() fail after adding a transposed tensor? The result keeps the memory
# order of the first operand, so it is not contiguous when that operand is a transpose.
import torch

w = torch.arange(12.0).reshape(3, 4)
wt = w.t()                      # shape (4, 3), column-major in memory
u = torch.ones(4, 3)

s = wt + u                      # laid out like wt
r = u + wt                      # laid out like u
print("s:", s.stride(), s.is_contiguous())
print("r:", r.stride(), r.is_contiguous())

try:
    s.view(-1)
except RuntimeError as e:
    print("view failed:", str(e).split("(")[0].strip())

print(s.reshape(-1))            # reshape copies when it has to
print(s.t().is_contiguous(), s.t().view(-1))

# comparisons, where and in-place-free arithmetic follow the same rule
mask = wt > 5
print(mask.stride(), torch.where(mask, wt, u).stride())
print(torch.maximum(wt, u).stride(), (wt * 2 - 1).stride())

# a broadcast (expanded) operand has no say: the other one decides
col = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
print((col + wt).stride(), (wt + col).stride())

# gradients do not care about the layout
x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
y = x.t() * 3 + x.t() ** 2
y.sum().backward()
print(torch.allclose(x.grad, 3 + 2 * x.detach()))
