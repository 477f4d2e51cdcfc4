# Growing a bias row to a batch with expand, and what PyTorch says when the sizes disagree.
import torch

bias = torch.tensor([[0.5, -1.0, 2.0]])          # one row of 3
batch = bias.expand(4, -1)                       # four views of the same row
print(batch)
print(batch.stride())

grid = torch.arange(6.0).reshape(2, 3)
attempts = [(4, 5), (2, 5), (4, 3), (7, 2, 5), (-1, 2, 3), (2, -1), (2, -4)]
for sizes in attempts:
    try:
        print(sizes, grid.expand(*sizes).shape)
    except RuntimeError as err:
        print(sizes, "->", err)

column = torch.ones(2, 1, requires_grad=True)
wide = column.expand(2, 4) * torch.arange(4.0)
wide.sum().backward()
print(column.grad)

try:
    torch.broadcast_to(grid, (3, 4))
except RuntimeError as err:
    print("broadcast_to:", err)

slots = torch.zeros(3, 4)
try:
    slots[1:] = torch.ones(3, 3)
except RuntimeError as err:
    print("assign:", err)
