# Memory formats: channels_last (NHWC) tensors and modules, and what keeps the layout.
import torch
import torch.nn as nn

torch.manual_seed(0)
cl = torch.channels_last

x = torch.arange(2 * 3 * 2 * 2, dtype=torch.float32).reshape(2, 3, 2, 2)
print(x.stride(), x.is_contiguous(), x.is_contiguous(memory_format=cl))
y = x.to(memory_format=cl)
print(y.shape, y.stride(), y.is_contiguous(), y.is_contiguous(memory_format=cl))
print(torch.equal(x, y), y.to(memory_format=cl) is y, y.contiguous(memory_format=cl) is y)
print(y.contiguous().stride(), y.to(memory_format=torch.contiguous_format).stride())
print(y.flatten().tolist()[:6])  # the values keep their logical order
print(y.permute(0, 2, 3, 1).is_contiguous(), y.permute(0, 2, 3, 1).stride())

# constructors and *_like
e = torch.empty(4, 3, 5, 5, memory_format=cl)
print(e.stride(), torch.empty_like(e).stride(), torch.zeros_like(x, memory_format=cl).stride())
r = torch.rand_like(x, memory_format=cl)
print(r.stride(), r[0, :, 0, 0])
print(torch.randn(2, 3, 2, 2).to(memory_format=cl).clone().stride())
print(y.clone(memory_format=torch.contiguous_format).stride())
print(x.double().to(memory_format=cl).stride(), y.double().stride(), y.to(torch.int64).stride())

# pointwise ops follow their inputs
print((y + 1).stride(), (y * y).stride(), torch.relu(y).stride(), (y + x).stride(), (x + y).stride())
print(y.sum(dim=1).stride(), y.mean(dim=(2, 3)).stride())

# a size-1 channel or spatial extent is contiguous in both formats
print(torch.empty(4, 1, 4, 4).is_contiguous(memory_format=cl), torch.empty(4, 1, 4, 4).is_contiguous())
print(torch.empty(4, 1, 4, 4).to(memory_format=cl).stride(), torch.empty(2, 3, 1, 1).to(memory_format=cl).stride())
v = torch.empty(2, 3, 2, 2, 2, memory_format=torch.channels_last_3d)
print(v.stride(), v.is_contiguous(memory_format=torch.channels_last_3d), v.is_contiguous(memory_format=cl))

# gradients flow through the layout change
a = torch.arange(24.0).reshape(2, 3, 2, 2).requires_grad_()
b = a.to(memory_format=cl)
print(b.grad_fn.name(), a.contiguous(memory_format=cl).grad_fn.name())
(b * torch.arange(24.0).reshape(2, 3, 2, 2)).sum().backward()
print(a.grad.stride(), a.grad[1, 2])

# a model converted once; its 4-d weights change layout, the others do not
model = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16, 2))
model = model.to(memory_format=cl)
print(model[0].weight.stride(), model[0].bias.stride(), model[4].weight.stride())
with torch.no_grad():
    for p in model.parameters():
        p.copy_(torch.randint(-2, 3, p.shape))
inp = torch.randint(0, 4, (2, 3, 4, 4), dtype=torch.float32).to(memory_format=cl)
h = model[0](inp)
print(h.stride(), h.is_contiguous(memory_format=cl), model[2](model[1](h)).stride())
print(model(inp))
print(nn.Conv2d(3, 4, 1)(torch.ones(1, 3, 2, 2)).stride())
print(nn.functional.interpolate(inp, scale_factor=2).stride(), nn.functional.pad(inp, (1, 1)).stride())
print(nn.functional.interpolate(inp, size=(3, 3), mode="bilinear")[0, 0])

tries = [
    lambda: torch.ones(2, 3).to(memory_format=cl),
    lambda: torch.empty(2, 3, 4, memory_format=cl),
    lambda: x.contiguous(memory_format=torch.channels_last_3d),
    lambda: y.contiguous(memory_format=torch.preserve_format),
]
print(x.contiguous(memory_format=torch.preserve_format) is x)
for attempt in tries:
    try:
        attempt()
    except RuntimeError as err:
        print("RuntimeError:", err)
