import torch

v = torch.tensor([3.0, 4.0], requires_grad=True)
n = v.norm()
print(n)
n.backward()
print(v.grad)  # v / ||v||

u = torch.tensor([1.0, -2.0, 2.0], requires_grad=True)
torch.norm(u, p=1).backward()
print(u.grad)
