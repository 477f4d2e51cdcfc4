# Building tensors straight from range() objects, as forum answers often do, and
# differentiating through them.
import torch

steps = torch.tensor(range(1, 6), dtype=torch.float64, requires_grad=True)
print(steps)
energy = (steps.sin() * steps).sum()
energy.backward()
print(steps.grad)

ids = torch.tensor(range(4))
print(ids, ids.dtype)
print(torch.tensor(range(10, 0, -3)))
print(torch.tensor(range(0)).shape)

grid = torch.tensor([range(3), range(3, 6)], dtype=torch.float32)
print(grid)
print(torch.Tensor(range(3)), torch.FloatTensor(range(2)), torch.LongTensor(range(3)))
print(torch.as_tensor(range(2, 5)))

w = torch.tensor(range(3), dtype=torch.float32, requires_grad=True)
loss = ((grid @ w) - torch.tensor(range(2), dtype=torch.float32)).pow(2).mean()
loss.backward()
print(loss, w.grad)

for bad in (range(2), {"a": 1}):
    try:
        print(torch.tensor(bad))
    except RuntimeError as e:
        print("RuntimeError:", e)
