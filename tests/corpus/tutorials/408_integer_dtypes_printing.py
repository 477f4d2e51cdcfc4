import torch

for dt in [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8]:
    t = torch.tensor([1, 2, 100], dtype=dt)
    print(t, t.dtype, t.element_size())

print(torch.tensor([-128, 0, 127], dtype=torch.int8))
print(torch.tensor([[1, -20], [300, 4]], dtype=torch.int16))
print(torch.tensor([2**40, -5]))
print(torch.tensor([0, 255], dtype=torch.uint8))
print(torch.tensor(5, dtype=torch.int32))
print(torch.tensor([], dtype=torch.int32))
print(torch.arange(6, dtype=torch.int8).reshape(2, 3))
print(torch.tensor([3, 4]).short(), torch.tensor([3, 4]).char(), torch.tensor([3, 4]).byte())
print(torch.tensor([3, 4], dtype=torch.int32) + torch.tensor([1, 1], dtype=torch.int8))
print((torch.tensor([100], dtype=torch.int8) + torch.tensor([100], dtype=torch.int8)))
print(torch.tensor([250], dtype=torch.uint8) + 10)
print(torch.iinfo(torch.int8).max, torch.iinfo(torch.int32).min)
