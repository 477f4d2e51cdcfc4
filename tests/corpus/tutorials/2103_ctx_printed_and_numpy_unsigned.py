# A forum question: "where does ctx come from?" -- print it inside forward, then look at the
# unsigned NumPy types a data pipeline hands over.
import numpy as np
import torch


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, k):
        text = str(ctx)
        print(text[: text.index(" object at")] + ">")
        print(type(ctx).__name__, isinstance(ctx, torch.autograd.function.FunctionCtx))
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, g):
        return g * ctx.k, None


x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = Scale.apply(x, 4.0)
y.sum().backward()
print(x.grad, y.grad_fn.name())

counts = np.array([3, 1, 4, 1, 5], dtype=np.uint16)
print(counts.dtype, type(counts[2]) is np.uint16, isinstance(counts[0], np.uint16))
print(np.uint32(7) * 3, repr(np.uint64(9)), counts.sum(), counts.max() - counts.min())
big = np.arange(4, dtype=np.uint32)
print(torch.from_numpy(big.astype(np.int64)) * 2, big.dtype.itemsize)
