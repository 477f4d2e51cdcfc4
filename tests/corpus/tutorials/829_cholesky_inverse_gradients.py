# The inverse of a covariance from its Cholesky factor, as Gaussian-process and
# natural-gradient code computes it: values, gradients with respect to the factor, the
# forward-mode derivative, and the upper-triangular form.
import torch

torch.manual_seed(7)
A = torch.randn(4, 4, dtype=torch.float64)
cov = A @ A.T + 4 * torch.eye(4, dtype=torch.float64)
L = torch.linalg.cholesky(cov).requires_grad_()

K_inv = torch.cholesky_inverse(L)
print(K_inv)
print(torch.allclose(K_inv, torch.linalg.inv(cov)))
y = torch.tensor([1.0, -2.0, 0.5, 3.0], dtype=torch.float64)
quad = y @ K_inv @ y
quad.backward()
print(quad, L.grad)

U = L.detach().T.clone().requires_grad_()
K_inv_u = torch.cholesky_inverse(U, upper=True)
print(torch.allclose(K_inv_u, K_inv))
K_inv_u.trace().backward()
print(U.grad)

# a batch, float32, through a method call
Lb = torch.linalg.cholesky(torch.eye(3) * 2 + 0.1 * torch.ones(2, 3, 3)).requires_grad_()
Xb = Lb.cholesky_inverse()
print(Xb)
Xb.sum().backward()
print(Lb.grad)

# forward mode: the derivative of the inverse along a direction of the factor
t = torch.tensor(0.3, dtype=torch.float64)


def f(t):
    one = torch.ones((), dtype=t.dtype)
    zero = torch.zeros((), dtype=t.dtype)
    F = torch.stack((2 + t, zero, t * one, 1.5 * one)).reshape(2, 2)
    return torch.cholesky_inverse(F)


value, tangent = torch.func.jvp(f, (t,), (torch.ones_like(t),))
print(value, tangent)
print(torch.func.jacrev(f)(t))
print(
    torch.autograd.gradcheck(
        lambda l: torch.cholesky_inverse(l.tril()), (L.detach().requires_grad_(),)
    )
)
