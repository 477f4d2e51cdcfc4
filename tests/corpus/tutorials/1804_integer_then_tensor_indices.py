# An integer (or a 0-dim integer tensor) with index tensors in one subscript: PyTorch selects
# with the integer first, so a slice between them keeps the indexed axis where it was.
import torch

frames = torch.arange(2 * 3 * 5.0).reshape(2, 3, 5)
cols = torch.tensor([4, 0, 2])
pick = torch.tensor(1)
print(frames[0, :, cols])
print(frames[pick, :, cols[:2]].shape, frames[:, 1, cols].shape, frames[pick, cols[1:] - 1].shape)

canvas = torch.zeros(2, 3, 3)
canvas[0, :, [0, 1, 2]] = torch.arange(9.0).reshape(3, 3)
canvas[pick, :, torch.tensor([2, 0])] += torch.ones(3, 2)
print(canvas)

w = torch.zeros(2, 3, 4, requires_grad=True)
out = w * 2
out[pick, :, cols[:2] - 1] = torch.arange(6.0).reshape(3, 2)
(out * torch.arange(24.0).reshape(2, 3, 4)).sum().backward()
print(out[1], w.grad[1])

batch = torch.zeros(4, 2, 8)
starts = torch.tensor([1, 5, 0, 3])
for b in range(4):
    batch[b, :, torch.arange(starts[b], starts[b] + 3)] = torch.tensor(
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    )
print(batch[3])
