# Products of small integer tensors: pixel values stored as uint8, flags as bool. PyTorch
# multiplies them in int64 (not in the stored type), with or without a dim.
import torch

pixels = torch.tensor([[200, 100, 3], [50, 3, 7]], dtype=torch.uint8)
print(pixels.prod())
print(pixels.prod(1), pixels.prod(0, keepdim=True))
print(torch.prod(pixels, dim=-1).dtype, torch.prod(pixels).dtype)
print(pixels.cumprod(1))

offsets = torch.tensor([-3, 50, 7], dtype=torch.int8)
print(offsets.prod(), torch.prod(offsets, 0).dtype)
print(offsets.prod(dtype=torch.int8))  # asked for int8: wraps as int8

flags = torch.tensor([[True, True], [True, False]])
print(flags.prod(), flags.prod(1), flags.prod(dim=0, keepdim=True))

small = torch.tensor([7, 11], dtype=torch.int16)
print(small.prod(), small.int().prod(), small.prod(0).dtype)
