# Walking the graph of products that mix dtypes, as answers about complex autograd do: a real
# leaf times a complex tensor, a float32 leaf times a float64 one, torch.where between them.
# PyTorch promotes inside the operation, so next_functions shows each leaf's AccumulateGrad
# (no copy node), and the gradients come back in each leaf's own dtype.
import torch


def edges(t):
    return [(f.name() if f is not None else None, i) for f, i in t.grad_fn.next_functions]


x = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
w = torch.tensor([1 + 1j, 2j, -1 + 0.5j], requires_grad=True)
phase = torch.tensor([1j, -1j, 1 + 0j])

for name, y in [("x * w", x * w), ("w * x", w * x), ("x + w", x + w), ("x - w", x - w),
                ("x / w", x / w), ("x * phase", x * phase), ("x * 1j", x * 1j)]:
    print(f"{name:10s}", y.grad_fn.name(), edges(y))

loss = (x * w * phase).abs().pow(2).sum()
loss.backward()
print(x.grad)
print(w.grad)
print(x.grad.dtype, w.grad.dtype)

a = torch.tensor([1.5, 2.0], requires_grad=True)
b = torch.tensor([3.0, -4.0], dtype=torch.float64, requires_grad=True)
c = a * b
print(c.dtype, c.grad_fn.name(), edges(c))
m = torch.where(b > 0, a, b)
print(m.grad_fn.name(), edges(m))
(c.sum() + m.sum()).backward()
print(a.grad, b.grad)
explicit = a.double() * b
print(edges(explicit), edges(explicit)[0][0] == "ToCopyBackward0")
