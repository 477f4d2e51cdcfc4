import torch

# Composing rotations and scalings of the plane as a running product of complex numbers.
factors = torch.tensor([1 + 2j, -0.5j, 3 - 1j, 0.25 + 0.25j], requires_grad=True)
composed = factors.cumprod(0)
print(composed)

# A real loss of the composed values; the gradient is PyTorch's conjugate convention.
weights = torch.tensor([1j, 2, -1, 0.5 - 1j])
(composed * weights).abs().sum().backward()
print(factors.grad)

# Along rows of a batch, with a zero factor in one row.
batch = torch.tensor(
    [[1 + 1j, 2 - 2j, 0.1j], [3.3 + 0j, 0j, 2 + 0.5j]], dtype=torch.complex128, requires_grad=True
)
prods = torch.cumprod(batch, dim=1)
print(prods)
prods.backward(torch.ones_like(prods) * (1 - 1j))
print(batch.grad)

# A real input multiplied up in a complex dtype: autograd refuses the complex gradient
# PyTorch's rule hands back.
x = torch.tensor([1.5, -2.0, 0.5], dtype=torch.float64, requires_grad=True)
try:
    torch.cumprod(x, 0, dtype=torch.complex128).real.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

# In place.
v = torch.tensor([1 + 1j, 2 + 2j, 0.5j])
v.cumprod_(0)
print(v)
