# Tiny "image" of integer pixel counts: which layers accept integer tensors as they are, and
# which need a .float() first (my notes after a few errors).
import torch
import torch.nn.functional as F

img = (torch.arange(32) % 5).view(1, 2, 4, 4).to(torch.int32)
kernel = torch.tensor([[1, 2], [0, -1]], dtype=torch.int32).expand(3, 2, 2, 2).contiguous()

edges = F.conv2d(img, kernel)
print(edges.dtype, edges[0, 0])
pairs = F.bilinear(img[0, 0].to(torch.int16), img[0, 1].to(torch.int16),
                   torch.ones(2, 4, 4, dtype=torch.int16), torch.tensor([1, -1], dtype=torch.int16))
print(pairs)

tries = [
    ("transposed conv on int32", lambda: F.conv_transpose2d(img, kernel.transpose(0, 1))),
    ("dilated conv on uint8", lambda: F.conv2d(img.to(torch.uint8), kernel.to(torch.uint8), dilation=2)),
    ("conv on a bool mask", lambda: F.conv2d(img > 2, kernel > 0)),
    ("bilinear of bools", lambda: F.bilinear(img[0, 0] > 1, img[0, 1] > 1, torch.ones(2, 4, 4) > 0)),
    ("matmul of bools", lambda: torch.matmul(img[0] > 1, (img[0, 0] > 1).T)),
]
for name, fn in tries:
    try:
        out = fn()
        print(name, "->", out.dtype, tuple(out.shape))
    except NotImplementedError as err:
        print(name, "->", err)

x = img.float().requires_grad_()
up = F.conv_transpose2d(x, kernel.float().transpose(0, 1), stride=2)
(up * up).sum().backward()
print(up.shape, x.grad[0, 1])
