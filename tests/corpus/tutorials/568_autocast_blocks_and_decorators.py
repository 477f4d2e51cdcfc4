# Autocast as notebooks write it, on a CPU-only machine: CUDA autocast is disabled with a
# warning; `enabled=False` anywhere changes nothing; the results stay float32.
import torch
import torch.nn.functional as F

a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([[0.5, -1.0], [2.0, 0.25]])

with torch.autocast(device_type="cuda"):
    c = a @ b
    print(c.dtype, torch.is_autocast_enabled(), torch.is_autocast_enabled("cuda"))
    print(torch.get_autocast_dtype("cuda"))
print(c)

with torch.cuda.amp.autocast():
    d = F.softmax(a @ b, dim=1)
print(d)

with torch.amp.autocast("cuda", dtype=torch.float16) as ctx:
    e = torch.mm(a, b).relu().sum()
print(e, type(e), ctx is not None)

# nested: a disabled region inside
with torch.autocast("cuda"):
    with torch.autocast("cuda", enabled=False):
        f32 = torch.mm(a, b)
    g = f32 * 2
print(g.dtype, g.grad_fn.name())

# CPU autocast switched off
with torch.autocast("cpu", enabled=False):
    h = (a * b).sum()
print(h, torch.is_autocast_enabled("cpu"))
with torch.autocast("cuda", dtype=torch.float32):
    print(torch.get_autocast_dtype("cuda"))
print(torch.get_autocast_dtype("cuda"))


@torch.autocast(device_type="cuda")
def forward(x, w):
    return torch.tanh(x @ w)


@torch.cuda.amp.autocast()
def forward2(x, w):
    return torch.sigmoid(x @ w)


out = forward(a, b) + forward2(a, b)
out.sum().backward()
print(out)
print(a.grad)
print(torch.amp.is_autocast_available("cuda"), torch.amp.is_autocast_available("meta"))
