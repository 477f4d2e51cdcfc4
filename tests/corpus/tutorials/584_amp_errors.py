# What PyTorch says when AMP is used wrongly, caught as tutorials show errors.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)

off = torch.amp.GradScaler(enabled=False)
try:
    off.get_growth_factor()
except AttributeError as e:
    print("AttributeError:", e)
off.set_growth_interval(10)
print(off.get_growth_interval(), off.get_scale(), off.state_dict())

s = torch.amp.GradScaler("cpu")
for bad in (s.update, lambda: s.unscale_(opt), lambda: s.step(opt)):
    try:
        bad()
    except AssertionError as e:
        print("AssertionError:", e)
try:
    torch.amp.GradScaler("cpu", growth_factor=1.0)
except AssertionError as e:
    print("AssertionError:", e)
try:
    torch.amp.GradScaler("cpu", backoff_factor=1.5)
except AssertionError as e:
    print("AssertionError:", e)

loss = (w * w).sum()
s.scale(loss).backward()
s.unscale_(opt)
try:
    s.unscale_(opt)
except RuntimeError as e:
    print("RuntimeError:", e)
s.step(opt)
for bad in (lambda: s.step(opt), lambda: s.unscale_(opt), lambda: s.step(opt, closure=None)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
s.update()
print(w, s.get_scale())
try:
    s.scale(3)
except ValueError as e:
    print("ValueError:", e)
try:
    s.update(torch.tensor([1.0, 2.0]))
except AssertionError as e:
    print("AssertionError:", e)
try:
    torch.amp.GradScaler("cpu").load_state_dict(off.state_dict())
except RuntimeError as e:
    print("RuntimeError:", e)

for dev in ("meta", "gpu"):
    try:
        torch.autocast(dev)
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    torch.autocast(device_type=0)
except ValueError as e:
    print("ValueError:", e)
try:
    torch.amp.custom_fwd(lambda ctx, x: x)
except TypeError as e:
    print("TypeError:", e)
try:
    torch.amp.custom_bwd(device_type=1)
except ValueError as e:
    print("ValueError:", e)
print(torch.is_autocast_enabled("cpu"), torch.is_autocast_enabled())
