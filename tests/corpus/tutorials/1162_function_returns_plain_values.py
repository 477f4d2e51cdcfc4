# A custom autograd.Function whose forward sometimes hands back something that is not a
# tensor: PyTorch returns it untouched and records no graph node for it.
import torch


class Summary(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, mode):
        if mode == "norm":
            return t.norm().item()
        if mode == "shape":
            return list(t.shape)
        if mode == "pair":
            return [t * 2, t.mean()]
        if mode == "nothing":
            return None
        ctx.save_for_backward(t)
        return t * t, "squared"

    @staticmethod
    def backward(ctx, g, g_label):
        (t,) = ctx.saved_tensors
        return 2 * t * g, None


torch.manual_seed(7)
v = torch.randn(3, requires_grad=True)
for mode in ["norm", "shape", "pair", "nothing"]:
    r = Summary.apply(v, mode)
    print(mode, type(r).__name__, r)
pair = Summary.apply(v, "pair")
print([p.requires_grad for p in pair])
sq, label = Summary.apply(v, "square")
print(label, sq)
sq.sum().backward()
print(v.grad)
print(torch.allclose(v.grad, 2 * v.detach()))
with torch.no_grad():
    print(round(Summary.apply(v, "norm"), 4))
