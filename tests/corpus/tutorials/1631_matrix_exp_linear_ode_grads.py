# A linear ODE dx/dt = A x has the solution x(t) = expm(t A) x0. Batch the times, check the
# gradient of the end point with respect to A, and look at the last digits of float32.
import torch

torch.set_printoptions(precision=8)
A = torch.tensor([[-0.5, 1.0, 0.0], [-1.0, -0.5, 0.3], [0.2, 0.0, -1.5]], requires_grad=True)
x0 = torch.tensor([1.0, 0.0, -1.0])
times = torch.tensor([0.001, 0.05, 0.5, 1.0, 2.0, 8.0])

Ms = torch.linalg.matrix_exp(times[:, None, None] * A)  # a batch of 6 matrices
xs = Ms @ x0
print(xs)
xs[-1].sum().backward()
print(A.grad)

# one matrix at a time takes another path inside PyTorch (the degree follows the norm)
A.grad = None
for t in times.tolist():
    M = torch.matrix_exp(t * A)
    print(f"t={t:<5} {M[0].tolist()}")
M = torch.matrix_exp(2.0 * A)
M.backward(torch.ones(3, 3))
print(A.grad)

# float64, and the JVP through forward-mode AD
A64 = A.detach().double()
dA = torch.ones(3, 3, dtype=torch.float64)
out, tangent = torch.func.jvp(torch.linalg.matrix_exp, (A64,), (dA,))
print(out)
print(tangent)
h = torch.func.hessian(lambda a: torch.linalg.matrix_exp(a).trace())(A64[:2, :2])
print(h)
