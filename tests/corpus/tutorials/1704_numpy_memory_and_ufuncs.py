# Which NumPy arrays and tensors share memory, and NumPy ufuncs handed a tensor directly.
import numpy as np
import torch

base = np.linspace(0.0, 1.0, 6)
t = torch.from_numpy(base)
print("from_numpy shares:", np.shares_memory(base, t), np.may_share_memory(base, t))
print("as_tensor of a list:", np.shares_memory(base, torch.as_tensor(base.tolist())))
print("clone shares:", np.shares_memory(base, t.clone()))

grid = torch.arange(12.0).reshape(3, 4)
row, col = grid[1].numpy(), grid[:, 2].numpy()
print("row/col overlap:", np.shares_memory(row, col))
evens, odds = grid.view(-1)[::2].numpy(), grid.view(-1)[1::2].numpy()
print("interleaved: exact", np.shares_memory(evens, odds), "bounds", np.may_share_memory(evens, odds))
print("transpose:", np.shares_memory(grid.t(), grid), "float copy:", np.shares_memory(grid.double(), grid))
try:
    np.shares_memory(evens, odds, max_work=0)
except RuntimeError as e:
    print(type(e).__name__, e)

# ufuncs on tensors come back as tensors (NumPy computes; Python numbers are weak)
angles = torch.tensor([0.25, -0.5, 2.0], dtype=torch.float64)
print(np.arctan2(angles, 1))
print(np.arctan2(1, angles))
print(np.hypot(angles, torch.tensor([[1.0], [2.0]], dtype=torch.float64)))
small = torch.tensor([1.5, -2.5, 3.0])
print(np.arctan2(small, 2).dtype, np.degrees(torch.tensor([np.pi / 4], dtype=torch.float64)))
ints = torch.tensor([7, -3, 5])
print(np.fmod(ints, 2), np.floor_divide(ints, 2), np.mod(ints, 4))
w = torch.ones(2, requires_grad=True)
try:
    np.arctan2(w, 1)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.no_grad():
    print(np.arctan2(w, 2))
