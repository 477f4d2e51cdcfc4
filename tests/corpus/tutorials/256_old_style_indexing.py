# Indexing written the old way: a list of index lists, a list of index tensors, a uint8 mask.
import torch

scores = torch.arange(12.0).reshape(3, 4).requires_grad_()
rows, cols = [0, 2], [1, 3]
picked = scores[[rows, cols]]  # read as scores[rows, cols]
print(picked)
idx = [torch.tensor([0, 1]), torch.tensor([3, 0])]
print(scores[idx], scores[[0, slice(1, 3)]], scores[[None, 1]].shape)
(picked.sum() + scores[idx].sum()).backward()
print(scores.grad)

mask = torch.tensor([1, 0, 1], dtype=torch.uint8)  # an old byte mask
print(scores[mask], scores.detach()[:, mask.repeat(2)[:4]])
board = torch.zeros(3, 4)
board[[[0, 1], [1, 2]]] = 1.0
board[mask] = torch.full((2, 4), 7.0)
print(board)
try:
    board[mask] = 5.0
except RuntimeError as e:
    print(e)
