import torch

pred = torch.tensor([0.5, 1.5, -2.0, 3.0, 0.0], requires_grad=True)
target = torch.tensor([1.0, 1.0, -1.0, 0.0, 0.0])
mask = torch.tensor([True, True, False, True, False])

sq = (pred - target) ** 2
loss = torch.where(mask, sq, torch.zeros_like(sq)).sum() / mask.sum()
print(loss)
loss.backward()
print(pred.grad)

pred.grad = None
sq = (pred - target) ** 2
masked = sq[mask].mean()
print(masked)
masked.backward()
print(pred.grad)
print(mask.sum(), mask.float().mean(), mask.dtype)
