# Study notes: bmm, baddbmm and addbmm on small batches, then the mistakes I made first
# (wrong batch count, a bias of another dtype, a 2-D batch) caught and printed.
import torch

# (quarters and eighths: every product and sum below is exact in float32)
left = ((torch.arange(24.0).view(2, 3, 4) - 12) / 4).requires_grad_()
right = torch.arange(40.0).view(2, 4, 5) / 8
bias = torch.ones(3, 5, requires_grad=True)

prod = torch.bmm(left, right)
mixed = torch.baddbmm(bias, left, right, beta=0.5, alpha=2.0)
summed = torch.addbmm(bias, left, right)
print(prod.shape, mixed.shape, summed.shape)
print(summed)
(prod.sum() + mixed.sum() / 2 + summed.sum()).backward()
print(left.grad[0])
print(bias.grad)


def attempt(label, fn):
    try:
        out = fn()
        print(label, "ran:", tuple(out.shape), out.dtype)
    except (RuntimeError, IndexError) as err:
        print(label, type(err).__name__, "->", err)


attempt("bmm, 2 vs 3 batches", lambda: torch.bmm(left, torch.ones(3, 4, 5)))
attempt("bmm, inner 4 vs 5", lambda: left.bmm(torch.ones(2, 5, 5)))
attempt("baddbmm, double bias", lambda: torch.baddbmm(bias.double(), left, right))
attempt("baddbmm, half bias", lambda: torch.baddbmm(torch.zeros(5, dtype=torch.half), left, right))
attempt("baddbmm, 2-D batch1", lambda: torch.baddbmm(bias, left[0], right))
attempt("baddbmm, 1-D batch1", lambda: torch.baddbmm(bias, left[0, 0], right))
attempt("addbmm, 3-D bias", lambda: torch.addbmm(torch.zeros(2, 3, 5), left, right))
attempt("addbmm, int bias", lambda: torch.addbmm(torch.zeros(3, 5, dtype=torch.int32), left, right))
attempt("addbmm, bool bias", lambda: torch.addbmm(torch.zeros(3, 5).bool(), left, right))
attempt("addbmm, 1-D batch2", lambda: torch.addbmm(bias, left, right[0, 0]))
attempt("baddbmm, one dtype", lambda: torch.baddbmm(bias.detach().double(), left.double(), right.double()))
