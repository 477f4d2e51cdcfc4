# torch.frombuffer over a bytes object: raw little-endian bytes read as uint8, int16, int32
# or float32, with count and offset, and the errors PyTorch gives for lengths that do not fit.

import torch

raw = bytes(range(12))
print(torch.frombuffer(raw, dtype=torch.uint8))
print(torch.frombuffer(raw, dtype=torch.int16))
print(torch.frombuffer(raw, dtype=torch.int32, count=2, offset=4))
floats = torch.frombuffer(b"\x00\x00\xc0\x3f\x00\x00\x00\xc0", dtype=torch.float32)
print(floats, floats.dtype, floats.requires_grad)
leaf = torch.frombuffer(
    b"\x00\x00\x80\x3f\x00\x00\x00\x40", dtype=torch.float32, requires_grad=True
)
(leaf * leaf).sum().backward()
print(leaf.grad)
for kwargs in (
    {"dtype": torch.int32},
    {"dtype": torch.int16, "count": 7},
    {"dtype": torch.uint8, "offset": 12},
    {"dtype": torch.uint8, "count": 0},
):
    try:
        torch.frombuffer(raw, **kwargs)
    except ValueError as e:
        print(e)
try:
    torch.frombuffer([1, 2, 3], dtype=torch.uint8)
except ValueError as e:
    print(e)
