# Padding 1-D signals and small images before a convolution: reflect and replicate modes
# on empty or over-cropped inputs, and what each mode reports when nothing is left.
import torch
import torch.nn.functional as F

sig = torch.arange(8.0).reshape(1, 2, 4)
print(F.pad(sig, (2, 1), mode="reflect"))
print(F.pad(sig, (-1, -2), mode="replicate"))
print(F.pad(torch.zeros(0, 2, 4), (1, 1), mode="reflect").shape)   # an empty batch is fine

attempts = [
    ("no channels", torch.zeros(3, 0, 4), (1, 1), "reflect"),
    ("no samples", torch.zeros(0, 4), (1, 1), "replicate"),
    ("cropped away", sig, (-2, -2), "reflect"),
    ("cropped too far", sig, (-3, -2), "circular"),
    ("image cropped away", torch.zeros(1, 1, 3, 4), (-3, -2, -2, -2), "replicate"),
]
for name, x, pad, mode in attempts:
    try:
        print(name, F.pad(x, pad, mode=mode).shape)
    except RuntimeError as e:
        print(name, "->", e)

img = torch.arange(12.0).reshape(1, 1, 3, 4)
print(F.pad(img, (-2, -2, 0, 0), mode="reflect").shape)
print(F.pad(img[0], (-2, -2), mode="circular").shape)
