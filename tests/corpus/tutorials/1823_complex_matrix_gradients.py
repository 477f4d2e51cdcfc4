# Gradients through complex matrix functions: a real loss of the matrix exponential, of a
# Cholesky solve and of geqrf's Q rebuilt by householder_product (PyTorch's conjugate
# Wirtinger gradients), and of quotients of complex tensors.
import torch

A = torch.tensor(
    [[0.2 + 0.1j, -0.4 + 0.3j, 0.1j], [0.3 - 0.2j, -0.1 + 0.5j, 0.2], [0.05j, 0.3, -0.2 - 0.1j]],
    dtype=torch.complex128,
    requires_grad=True,
)
E = torch.linalg.matrix_exp(A)
loss = E.abs().pow(2).sum()
loss.backward()
print(round(loss.item(), 10))
print(A.grad)

M = torch.tensor([[4 + 0j, 1 - 1j], [1 + 1j, 3 + 0j]], dtype=torch.complex128)
L = torch.linalg.cholesky(M).requires_grad_()
b = torch.tensor([[1 + 0j], [0.5 - 1j]], dtype=torch.complex128, requires_grad=True)
x = torch.cholesky_solve(b, L)
(x.real.sum() + x.imag.pow(2).sum()).backward()
print(x)
print(L.grad)
print(b.grad)

h = torch.tensor(
    [[1.0 + 0.5j, 0.3 - 0.2j], [0.4 + 0.1j, -0.6 + 0.2j], [-0.2 + 0.3j, 0.5 - 0.1j]],
    dtype=torch.complex128,
    requires_grad=True,
)
tau = torch.tensor([1.2 + 0.3j, 0.8 - 0.4j], dtype=torch.complex128, requires_grad=True)
Qh = torch.linalg.householder_product(h, tau)
Qh.abs().sum().backward()
print(Qh)
print(h.grad)
print(tau.grad)

z = torch.tensor([1 + 2j, -0.5 + 0.25j, 3 - 1j], requires_grad=True)
w = torch.tensor([0.5 - 1j, 2 + 0.5j, -1 + 1j], requires_grad=True)
q = z / w + 1 / z - (2 - 1j) / w
q.abs().sum().backward()
print(q)
print(z.grad, w.grad)
