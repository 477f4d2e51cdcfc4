# The settings benchmark and reproducibility scripts start with.
import torch

torch.set_num_threads(1)
torch.set_num_interop_threads(1)
torch.set_flush_denormal(True)
torch.set_default_device("cpu")
torch.manual_seed(0)
print("threads:", torch.get_num_threads(), torch.get_num_interop_threads())
print("device:", torch.get_default_device())
print("warn always:", torch.is_warn_always_enabled())
torch.set_warn_always(True)
print("warn always:", torch.is_warn_always_enabled())
x = torch.randn(3, requires_grad=True)
for v in (x, x.double(), x.long(), 2.5, [x]):
    print(torch.typename(v))
(x.sin() * 2).sum().backward()
print(x.grad)
for bad in (0, -2, 1.5, True):
    try:
        torch.set_num_threads(bad)
    except RuntimeError as e:
        print("RuntimeError:", e)
