# torch.functional is the module behind torch.einsum, torch.norm, torch.split, ...; some
# course notes import it directly. Its F is torch.nn.functional.
import torch
import torch.functional as TF
from torch.functional import einsum, cdist

torch.manual_seed(5)
points = torch.randn(4, 2, requires_grad=True)
centers = torch.tensor([[0.0, 0.0], [1.0, 1.0]])
d = cdist(points, centers)
print(d)
soft = TF.F.softmin(d, dim=1)
print(soft)
gram = einsum("ik,jk->ij", points, points)
loss = TF.norm(gram) + soft[:, 0].sum()
loss.backward()
print(loss, points.grad)
chunks = TF.split(torch.arange(7), 3)
print(chunks, TF.broadcast_shapes((3, 1), (1, 4)))
grid_y, grid_x = TF.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")
print(grid_y + grid_x)
print(TF.unique(torch.tensor([2, 0, 2, 1]), return_counts=True))
try:
    TF.relu(points)
except AttributeError as e:
    print(e)
