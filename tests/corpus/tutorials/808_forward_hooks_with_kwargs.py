# Forward hooks that see and change keyword arguments (register_forward_pre_hook and
# register_forward_hook with with_kwargs=True), as attention / adapter tutorials use them.
import torch
import torch.nn as nn


class Gate(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 3)

    def forward(self, x, scale=1.0, mask=None):
        y = self.lin(x) * scale
        if mask is not None:
            y = y.masked_fill(mask, 0.0)
        return y


torch.manual_seed(0)
g = Gate()
x = torch.randn(2, 3, requires_grad=True)


def double_scale(module, args, kwargs):
    print("pre-hook sees", len(args), "args and", sorted(kwargs))
    kwargs = dict(kwargs)
    kwargs["scale"] = kwargs.get("scale", 1.0) * 2
    return args, kwargs


def add_mask(module, args, kwargs):
    if "mask" not in kwargs:
        return args, {**kwargs, "mask": torch.tensor([[False, True, False]])}
    return None


def report(module, args, kwargs, output):
    print("forward hook: scale", kwargs.get("scale"), "output", output.shape)
    return output.sum(dim=-1)


def plain(module, args, output):
    print("plain hook sees", type(output).__name__)


h1 = g.register_forward_pre_hook(double_scale, with_kwargs=True)
h2 = g.register_forward_pre_hook(add_mask, with_kwargs=True)
h3 = g.register_forward_hook(report, with_kwargs=True)
h4 = g.register_forward_hook(plain)
print(len(g._forward_pre_hooks), len(g._forward_pre_hooks_with_kwargs))
print(len(g._forward_hooks), len(g._forward_hooks_with_kwargs))

out = g(x, scale=0.5)
print(out)
out.sum().backward()
print(x.grad)

h1.remove()
h3.remove()
print(len(g._forward_pre_hooks_with_kwargs), len(g._forward_hooks_with_kwargs))
print(g(x))


def bad(module, args, kwargs):
    return args


g.register_forward_pre_hook(bad, with_kwargs=True)
try:
    g(x)
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
