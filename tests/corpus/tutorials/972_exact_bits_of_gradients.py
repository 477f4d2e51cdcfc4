# Comparing gradients bit for bit: float.hex() and as_integer_ratio() of .item() values.
import torch

x = torch.tensor([0.1, 0.2, 0.7], dtype=torch.float64, requires_grad=True)
y = (x.sin() * x.exp()).sum()
(g,) = torch.autograd.grad(y, x)
for value in g.tolist():
    print(f"{value!r:>22} {value.hex()}")

a = torch.tensor(0.1, dtype=torch.float32, requires_grad=True)
(a * a * 3).backward()
grad = a.grad.item()
print(grad, grad.hex(), grad.as_integer_ratio())
print((0.6).hex(), grad == 0.6, grad.is_integer())

steps = 7
print(steps.bit_length(), steps.bit_count(), steps.as_integer_ratio())
