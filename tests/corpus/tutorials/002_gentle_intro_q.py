import torch

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)

Q = 3 * a**3 - b**2
print(Q)

# Q is a vector: backward() needs the gradient of some scalar w.r.t. Q
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)

# check collected gradients are correct
print(9 * a**2 == a.grad)
print(-2 * b == b.grad)
print(a.grad, b.grad)
