# What PyTorch refuses with complex tensors, caught and printed as a tutorial shows them.
import torch

z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
y = (z * z).sum()
try:
    y.backward()
except RuntimeError as e:
    print("backward:", e)

y = (z * z).sum()
y.backward(torch.tensor(1 + 0j))
print(z.grad)

try:
    print(z < 1)
except NotImplementedError as e:
    print("compare:", e)

try:
    torch.tensor([1.0, 2.0]).imag
except RuntimeError as e:
    print("imag:", e)

try:
    torch.view_as_real(torch.ones(2))
except RuntimeError as e:
    print("view_as_real:", e)

try:
    torch.view_as_complex(torch.ones(3))
except RuntimeError as e:
    print("view_as_complex:", e)

try:
    torch.tensor([1j, 2], dtype=torch.float32)
except TypeError as e:
    print("tensor:", e)

try:
    float(torch.tensor(1 + 1j))
except RuntimeError as e:
    print("float:", e)

try:
    torch.complex(torch.ones(2), torch.ones(2, dtype=torch.float64))
except RuntimeError as e:
    print("complex:", e)

try:
    (torch.ones(2, requires_grad=True) * 2).backward(torch.ones(2, dtype=torch.cfloat))
except RuntimeError as e:
    print("mismatch:", e)
print(1j == 1j, (1 + 0j) == 1, abs(-3j))
