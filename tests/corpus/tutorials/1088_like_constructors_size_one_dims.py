# zeros_like / rand_like / randint_like of tensors with dimensions of size 1 (a column turned
# into a row, a slice of a column, an unsqueezed slice): the new tensor's strides, and the
# order its random values are drawn in, follow the input's layout.
import torch

torch.manual_seed(0)
row = torch.arange(3.0).reshape(3, 1).t()
col = torch.arange(6.0).reshape(1, 6)[:, ::2].permute(1, 0)
cube = torch.arange(6.0).reshape(2, 1, 3).permute(2, 1, 0)
flat = torch.arange(8.0).reshape(2, 4)[:, None, ::2]

for name, t in [("row", row), ("col", col), ("cube", cube), ("flat", flat)]:
    print(f"{name:>4} {tuple(t.shape)} {t.stride()}")
    print("     zeros_like", torch.zeros_like(t).stride(), "empty_like", torch.empty_like(t).stride())
    print("     rand_like", torch.rand_like(t).stride(), "randint_like", torch.randint_like(t, 9).stride())
    print("     ones_like(float64)", torch.ones_like(t, dtype=torch.float64).stride())

print(torch.randint_like(cube, 10))
print(torch.rand_like(cube.transpose(0, 2)))
noise = torch.randn_like(flat)
print(noise.shape, noise.stride(), noise.flatten())
