# Complex matrices: products, the conjugate transpose, and the gradient of a real loss.
import torch

torch.manual_seed(1)
A = torch.randn(3, 3, dtype=torch.complex128, requires_grad=True)
v = torch.randn(3, dtype=torch.complex128)

print(A @ v)
print(torch.mv(A, v))
gram = torch.mm(A, A.H)
print(gram.real)
print(gram[0, 1], gram[1, 0])
print(torch.allclose(gram, gram.H), torch.real(gram[0, 0]))

loss = (A @ A.H).real.sum()
loss.backward()
print(loss)
print(A.grad)

A.grad = None
energy = (A.conj() * A).real.sum()
energy.backward()
print(torch.allclose(A.grad, 2 * A))
print(A.grad[0])
print(A.T.shape, A.t()[0, 1] == A[1, 0], A.mT[2])
