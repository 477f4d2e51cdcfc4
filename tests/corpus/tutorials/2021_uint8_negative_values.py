# Image-style uint8 buffers: negative Python ints wrap around (two's complement), as in C.
import torch

img = torch.zeros(2, 4, dtype=torch.uint8)
img[0, 0] = -1           # 255
img[0, 1:3] = -56        # 200
img[1] = -255            # 1
print(img)

mask = torch.tensor([[True, False, False, True], [False, True, False, False]])
img[mask] = -128
print(img)
img[torch.tensor([1]), torch.tensor([3])] = -2
print(img)

buf = torch.empty(3, dtype=torch.uint8)
buf.fill_(-3)
print(buf, buf.sum())
print(torch.full((2, 2), -1, dtype=torch.uint8))
print(torch.full_like(buf, -16), buf.new_full((3,), -100))
print(torch.tensor([-1, 0, 1, -255], dtype=torch.uint8))

# the range check still applies: -256 does not fit in 8 bits
for bad in (-256, 256, -0.5):
    try:
        buf[0] = bad
    except RuntimeError as e:
        print(bad, "->", e)
try:
    torch.tensor([-300], dtype=torch.uint8)
except RuntimeError as e:
    print(e)

# a Python int larger than 64 bits cannot even be read
x = torch.zeros(2)
try:
    x[0] = 2**64
except ValueError as e:
    print("ValueError:", e)

# signed int8 keeps its own range
s = torch.zeros(3, dtype=torch.int8)
s[0] = -128
s[1] = 127
print(s, s.to(torch.uint8))
