import torch
from torch.autograd.functional import jacobian, hessian

w = torch.tensor([0.5, -1.0], requires_grad=True)


def model(x):
    return torch.tanh(w * x).sum()


x = torch.tensor([1.0, 2.0])
J = jacobian(model, x, create_graph=True)
print(J)
penalty = (J ** 2).sum()
penalty.backward()
print(w.grad)

H = hessian(lambda t: (t ** 3).sum(), torch.tensor([1.0, 2.0]), vectorize=True)
print(H)
Jf = jacobian(lambda t: t.sin(), torch.tensor([0.0, 1.0]), vectorize=True, strategy="forward-mode")
print(Jf)
