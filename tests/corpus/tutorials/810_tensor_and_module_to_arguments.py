# x.to(...) and model.to(...) take a device, a dtype or a tensor (plus non_blocking, copy and
# memory_format): anything else is a TypeError, as old tutorials' `a.to(requires_grad=True)`
# shows; a model refuses integer dtypes and copy=.
import torch
import torch.nn as nn

x = torch.tensor([1.5, -2.0, 0.25])
d = torch.zeros(1, dtype=torch.float64)

print(x.to(torch.float64).dtype, x.to("cpu").dtype, x.to(d).dtype)
print(x.to("cpu", torch.int64), x.to(torch.device("cpu"), torch.float16, True).dtype)
print(x.to(dtype=torch.float64, device="cpu").dtype, x.to(None).dtype, x.to(True))
print(x.to(memory_format=torch.contiguous_format).dtype, x.to(d, non_blocking=True).dtype)

w = torch.tensor([2.0, 3.0], requires_grad=True)
same = w.to(torch.float32)
copy = w.to(copy=True)
print(same is w, copy is w, copy.grad_fn.name())
(copy * w).sum().backward()
print(w.grad)

attempts = [
    lambda: x.to(requires_grad=True),
    lambda: x.to(torch.float64, "cpu"),
    lambda: x.to("cpu", "cpu"),
    lambda: x.to([1, 2]),
    lambda: x.to(torch.float64, dtype=torch.float32),
    lambda: x.to(torch.float64, non_blocking=1),
    lambda: x.to(d, dtype=torch.int64),
    lambda: x.to("cpu", torch.float64, True, True, torch.contiguous_format),
]
for attempt in attempts:
    try:
        attempt()
    except TypeError as e:
        print(str(e).splitlines()[0])

a = torch.randn(2, 2)
a = (a * 3) / (a - 1)
try:
    a = a.to(requires_grad=True)
except TypeError as e:
    print("TypeError:", str(e)[:70])
a.requires_grad_(True)
print(a.requires_grad, (a * a).sum().grad_fn.name())

model = nn.Linear(3, 2)
print(model.to(d).weight.dtype, model.to(torch.float32).bias.dtype, model.to("cpu") is model)
for attempt in [
    lambda: model.to(torch.int64),
    lambda: model.to(copy=True),
    lambda: model.to(requires_grad=True),
    lambda: model.to(x),
]:
    try:
        print(attempt().weight.dtype)
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, str(e).splitlines()[0])
