import torch

# micro-batches: gradients add up in the leaf's .grad, in bfloat16
w = torch.tensor([0.25, -0.5, 1.0], dtype=torch.bfloat16, requires_grad=True)
batches = [
    torch.tensor([1.0, 2.0, 3.0]),
    torch.tensor([0.1, 0.2, 0.3]),
    torch.tensor([-1.0, 0.5, 0.25]),
]
for i, xb in enumerate(batches):
    loss = (w * xb.to(torch.bfloat16)).sum() / len(batches)
    loss.backward()
    print(i, loss, w.grad)

g = w.grad
w.grad.mul_(0.5)
print(g)

# retain_grad on an intermediate
h = w * 2
h.retain_grad()
z = (h.sigmoid() * h).sum()
z.backward()
print(h.grad, w.grad)
