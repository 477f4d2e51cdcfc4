# The inner product of complex vectors (torch.vdot conjugates its first argument) and
# torch.isreal, as in the docs' examples.
import torch

a = torch.tensor([2 + 3j, 3 + 4j])
b = torch.tensor([2 - 2j, 1 + 1j])
print(torch.vdot(a, b))
print(torch.vdot(b, a))
print(a.vdot(a), torch.dot(a, b))
print(torch.vdot(torch.tensor([2, 3]), torch.tensor([2, 1])))

v = torch.tensor([1j, 2.0], dtype=torch.complex128, requires_grad=True)
w = torch.tensor([0.5 + 1j, -1j], dtype=torch.complex128, requires_grad=True)
torch.vdot(v, w).real.backward()
print(v.grad, w.grad)

print(torch.isreal(torch.tensor([1, 1 + 1j, 2 + 0j])))
print(torch.tensor([1.5, -2.0]).isreal())
print(torch.isreal(torch.tensor([[0j, -0.0 + 1e-20j]], dtype=torch.complex128)))
