# Which dimension is outermost in memory? Tensor.dim_order() answers for plain, transposed,
# permuted and channels-last tensors, and with ambiguity_check it refuses layouts that more
# than one order describes.
import torch

images = torch.arange(2 * 3 * 4 * 4, dtype=torch.float32).reshape(2, 3, 4, 4)
print("NCHW:", images.dim_order())
nhwc = images.contiguous(memory_format=torch.channels_last)
print("NHWC:", nhwc.dim_order(), nhwc.stride())
print("swapped H/W:", images.transpose(2, 3).dim_order())
print("permuted 3-d:", torch.zeros(2, 3, 4).permute(1, 2, 0).dim_order(ambiguity_check=True))
print("5-d channels last:", torch.zeros(2, 3, 4, 5, 6).permute(0, 2, 3, 4, 1).dim_order())
print("matrix.t():", torch.zeros(3, 5).t().dim_order(), "vector:", torch.zeros(7).dim_order())

single = torch.zeros(1, 3, 4, 4)  # batch of one: N can sit anywhere
print("batch of one:", single.dim_order())
for check in (True, [torch.contiguous_format, torch.channels_last], [torch.channels_last]):
    try:
        print(check, "->", single.dim_order(ambiguity_check=check))
    except RuntimeError as e:
        print(check, "-> RuntimeError:", e)

wide = torch.ones(3, 1).expand(3, 4)  # a broadcast view: stride 0
print("expanded:", wide.dim_order(), wide.stride())
try:
    wide.dim_order(ambiguity_check=True)
except RuntimeError as e:
    print("RuntimeError:", e)

for bad in ("strict", [1, 2], (torch.channels_last,)):
    try:
        images.dim_order(ambiguity_check=bad)
    except TypeError as e:
        print("TypeError:", e)
