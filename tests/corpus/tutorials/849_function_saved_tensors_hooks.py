# Offloading what a custom autograd.Function saves: saved_tensors_hooks packs each tensor
# ctx.save_for_backward keeps (here into a side store, as one would to move it to disk or to
# the CPU) and unpacks it when backward reads ctx.saved_tensors.
import torch


class SiLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        s = torch.sigmoid(x)
        ctx.save_for_backward(x, s)
        return x * s

    @staticmethod
    def backward(ctx, g):
        x, s = ctx.saved_tensors
        return g * (s + x * s * (1 - s))


store = {}


def pack(t):
    key = len(store)
    store[key] = t.detach().clone()
    print(f"pack #{key}: shape {tuple(t.shape)}, from a node: {t.grad_fn is not None}")
    return key


def unpack(key):
    print(f"unpack #{key}")
    return store[key]


torch.manual_seed(0)
w = torch.randn(4, 3, requires_grad=True)
x = torch.randn(2, 4)
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    h = x @ w
    y = SiLU.apply(h)
    loss = y.pow(2).sum()
    with torch.no_grad():
        SiLU.apply(h)  # records nothing: nothing packed
loss.backward()
print(w.grad)

reference = torch.nn.functional.silu(x @ w).pow(2).sum()
(g,) = torch.autograd.grad(reference, w)
print(torch.allclose(g, w.grad))
