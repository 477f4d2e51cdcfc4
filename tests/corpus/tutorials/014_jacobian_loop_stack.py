import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = torch.stack([x[0] * x[1], x[1] ** 2, torch.sin(x[2]), x.sum()])

jac = []
for i in range(len(y)):
    grad_out = torch.zeros_like(y)
    grad_out[i] = 1.0
    (g,) = torch.autograd.grad(y, x, grad_outputs=grad_out, retain_graph=True)
    jac.append(g)

J = torch.stack(jac)
print(J)
print(J.shape)
