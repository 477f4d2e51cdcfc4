# Toy segmentation step: per-pixel cross entropy. Masks often arrive as uint8 (from image
# files); the loss wants int64 class indices for images, though a flat batch takes uint8.
import torch
import torch.nn as nn

torch.manual_seed(7)
net = nn.Conv2d(1, 3, kernel_size=3, padding=1)
image = torch.rand(2, 1, 4, 4)
mask = (torch.arange(32).view(2, 4, 4) % 3).to(torch.uint8)
loss_fn = nn.CrossEntropyLoss()

logits = net(image)
try:
    loss = loss_fn(logits, mask)
except RuntimeError as err:
    print("uint8 mask:", err)

flat_logits = logits.permute(0, 2, 3, 1).reshape(-1, 3)
print("flat uint8 ok:", loss_fn(flat_logits, mask.reshape(-1)).item() > 0)

loss = loss_fn(logits, mask.long())
loss.backward()
print(round(loss.item(), 4), net.bias.grad.shape)
per_pixel = nn.CrossEntropyLoss(reduction="none")(logits, mask.long())
print(per_pixel.shape, per_pixel.argmax().item())
