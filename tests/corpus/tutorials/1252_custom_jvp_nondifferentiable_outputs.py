# A custom Function returning a value and an index (argmax) under forward-mode AD: jvp answers
# with None for outputs that are not differentiable, as PyTorch insists.
import torch
import torch.autograd.forward_ad as fwAD


class PeakValue(torch.autograd.Function):
    @staticmethod
    def forward(ctx, scores):
        idx = scores.argmax()
        ctx.save_for_forward(idx)
        return scores.max(), idx

    @staticmethod
    def backward(ctx, g_val, g_idx):
        return None

    @staticmethod
    def jvp(ctx, t):
        (idx,) = ctx.saved_tensors
        return t[idx], None


class PeakValueChatty(PeakValue):
    @staticmethod
    def jvp(ctx, t):
        (idx,) = ctx.saved_tensors
        return t[idx], torch.zeros(())


class Rounded(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        r = torch.round(x)
        ctx.mark_non_differentiable(r)
        return r

    @staticmethod
    def backward(ctx, g):
        return torch.zeros_like(g)

    @staticmethod
    def jvp(ctx, t):
        return torch.zeros_like(t)


class RoundedQuiet(Rounded):
    @staticmethod
    def jvp(ctx, t):
        return None


class OnlyOne(PeakValue):
    @staticmethod
    def jvp(ctx, t):
        (idx,) = ctx.saved_tensors
        return t[idx]


scores = torch.tensor([0.2, 1.7, -0.4, 1.1])
direction = torch.tensor([0.5, -1.0, 2.0, 0.25])

with fwAD.dual_level():
    s = fwAD.make_dual(scores, direction)
    for fn in (PeakValue, PeakValueChatty, OnlyOne):
        try:
            val, idx = fn.apply(s)
            print(fn.__name__, fwAD.unpack_dual(val), fwAD.unpack_dual(idx).tangent)
        except RuntimeError as err:
            print(fn.__name__, "refused:", err)
    for fn in (Rounded, RoundedQuiet):
        try:
            r = fn.apply(s * 2.5)
            print(fn.__name__, fwAD.unpack_dual(r))
        except RuntimeError as err:
            print(fn.__name__, "refused:", err)
