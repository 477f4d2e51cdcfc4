# Weighting a vector output by an integer tensor of counts: backward() takes the counts as the
# gradient and casts them to the output's dtype, so every .grad stays a float tensor.
import torch

x = torch.tensor([0.25, -1.5, 2.0], requires_grad=True)
shifted = x + 2
counts = torch.tensor([3, 1, 2])
shifted.backward(counts)
print(x.grad, x.grad.dtype)

x.grad = None
flat = x.view(3, 1)
flat.backward(torch.tensor([[1], [0], [4]]))
print(x.grad)

x.grad = None
picked = x[1:]
picked.backward(torch.tensor([True, False]))
print(x.grad)

d = torch.tensor([0.5, 1.0], dtype=torch.float64, requires_grad=True)
(d.exp() - 1).backward(torch.tensor([2, -1]))
print(d.grad)

g, = torch.autograd.grad(x.clone(), x, grad_outputs=torch.tensor([5, 6, 7]))
print(g)

# a float32 weight given to a float64 output, kept in the graph
w = torch.tensor([1.0, 0.5], requires_grad=True)
gd, = torch.autograd.grad(d * d, d, grad_outputs=w, create_graph=True)
print(gd)
gd.sum().backward()
print(w.grad, w.grad.dtype)
