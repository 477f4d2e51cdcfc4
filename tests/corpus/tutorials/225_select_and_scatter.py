# Picking and scattering entries: index_select, take, masked_select, scatter_add.
import torch

emb = torch.tensor([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8]], requires_grad=True)
tokens = torch.tensor([2, 0, 2, 3])
picked = torch.index_select(emb, 0, tokens)
print(picked)
picked.sum().backward()
print("counts per row:", emb.grad)

x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
pos = torch.masked_select(x, x > 0)
print(pos)
corners = torch.take(x, torch.tensor([0, 2, 3, 5]))
print(corners)
(pos.sum() + corners.prod()).backward()
print(x.grad)

bins = torch.zeros(3).scatter_add(0, torch.tensor([0, 2, 2, 1, 0]), torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0]))
print(bins)
src = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0], requires_grad=True)
hist = torch.zeros(3).scatter_add(0, torch.tensor([0, 2, 2, 1, 0]), src)
(hist * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(src.grad)
