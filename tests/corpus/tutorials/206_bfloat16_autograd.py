import torch

# gradients of bfloat16 leaves come back in bfloat16
x = torch.tensor([0.5, 1.5, -2.0], dtype=torch.bfloat16, requires_grad=True)
y = (x * x * 3 + x.exp()).sum()
print(y)
y.backward()
print(x.grad)
print(x.grad.dtype)

# the same in float32, for comparison
x32 = x.detach().float().requires_grad_()
(x32 * x32 * 3 + x32.exp()).sum().backward()
print(x32.grad)
print((x.grad.float() - x32.grad).abs())

# a float32 leaf converted inside the graph gets a float32 gradient
w = torch.tensor([0.3, -0.7], requires_grad=True)
h = w.to(torch.bfloat16)
z = (torch.tanh(h) * torch.sigmoid(h)).sum()
print(h.grad_fn.name(), z.dtype)
z.backward()
print(w.grad, w.grad.dtype)

# a matrix product and a mean
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.bfloat16, requires_grad=True)
b = torch.tensor([[0.1, 0.2], [0.3, 0.4]], dtype=torch.bfloat16)
loss = (a @ b).mean()
loss.backward()
print(loss, a.grad)

# gradients accumulate in bfloat16 too
g = torch.tensor([0.1, 0.2], dtype=torch.bfloat16, requires_grad=True)
for _ in range(3):
    (g * 1.1).sum().backward()
print(g.grad)
