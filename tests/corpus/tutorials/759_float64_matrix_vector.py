# Float64 matrix-vector products the way least-squares and physics notebooks write them: a
# single sample through an nn.Linear in double precision, A @ x and its gradient A.t() @ g,
# a row vector times a matrix, and a few steps of gradient descent on a quadratic form, the
# values printed to every digit (repr of the Python floats) as notebooks show them.
import torch

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
layer = torch.nn.Linear(37, 5)
x = torch.randn(37)
y = layer(x)
print(y.tolist())
y.sum().backward()
print(layer.weight.grad[2, :4].tolist(), layer.bias.grad.tolist())

A = torch.randn(6, 40)
v = torch.randn(40, requires_grad=True)
b = A @ v
print(b.tolist())
b.backward(torch.linspace(-1, 1, 6))
print(v.grad[:6].tolist())

row = torch.randn(1, 50)
M = torch.randn(50, 4)
print((row @ M).tolist(), (row[0] @ M).tolist())

Q = torch.randn(8, 8)
Q = Q @ Q.t() + 8 * torch.eye(8)
z = torch.zeros(8, requires_grad=True)
rhs = torch.randn(8)
opt = torch.optim.SGD([z], lr=0.02)
for step in range(5):
    opt.zero_grad()
    loss = 0.5 * z @ (Q @ z) - rhs @ z
    loss.backward()
    opt.step()
    print(step, loss.item())
print(z.tolist())
