# float16 arithmetic with Python numbers half cannot hold (0.1, 1e5): PyTorch computes it in
# float and rounds once, forward and backward; x * 2 and x / 4 are exact either way.
import torch
torch.manual_seed(0)
x = torch.randn(6).half()
w = torch.randn(6, dtype=torch.float16, requires_grad=True)
y = w * 0.1
print(y)
print(y.grad_fn.name())
z = (w / 0.3 + 0.7 * w - 1e-3 - (2.5 - w) + 3.3 / w).sum()
print(z)
z.backward()
print(w.grad)
print(torch.mul(x, 0.1), x.mul(0.3), x.div(0.7), torch.div(x, 3.3), x.add(0.1), x.sub(0.01))
a = x.clone()
a *= 0.1
b = x.clone()
b.mul_(0.3)
c = x.clone()
c /= 0.7
d = x.clone()
d += 0.001
print(a, b, c, d)
print(x * 1e-5 * 1e5, x / 1e10)
print(x * 100000, x * 2, x / 4)
