# Debugging a NaN: which gradient does each operation pass back through an input that is NaN?
# PyTorch's kernels answer with their comparisons (x <= 0 ? ... : ...), so a NaN takes the
# branch whose test is false; in a long tensor the first elements go through a vectorised
# loop that can answer differently from the scalar loop that handles the rest.
import torch
import torch.nn.functional as F

nan = float("nan")

activations = {
    "relu": F.relu,
    "relu6": F.relu6,
    "hardtanh": lambda t: F.hardtanh(t, -2.0, 2.0),
    "leaky_relu": lambda t: F.leaky_relu(t, 0.2),
    "elu": F.elu,
    "selu": F.selu,
    "celu": lambda t: F.celu(t, 0.5),
    "hardswish": F.hardswish,
    "rrelu(eval)": lambda t: F.rrelu(t, training=False),
    "abs": torch.abs,
    "logit(eps)": lambda t: torch.logit(t, eps=0.25),
}

for dtype in (torch.float32, torch.float64):
    for n in (3, 10, 20, 40):
        values = [0.5, -1.5, nan, 3.0] * (n // 4) + [nan] * (n % 4)
        for name, fn in activations.items():
            x = torch.tensor(values, dtype=dtype, requires_grad=True)
            fn(x).sum().backward()
            picked = [x.grad[i].item() for i in range(n) if values[i] != values[i]]
            print(f"{str(dtype):14} n={n:2} {name:12} at the NaNs: {picked}")

# Two inputs, one of them NaN: neither is "the smaller", so both get the whole gradient
a = torch.tensor([1.0, nan, 2.0, 5.0], requires_grad=True)
b = torch.tensor([nan, 0.0, 2.0, 1.0], requires_grad=True)
(torch.maximum(a, b) * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print("maximum", a.grad, b.grad)
a.grad = b.grad = None
(torch.minimum(a, b) * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
print("minimum", a.grad, b.grad)

# The largest element of a tensor holding a NaN is the NaN: max() sends the gradient there
w = torch.tensor([[0.5, nan], [nan, 4.0]], requires_grad=True)
w.max().backward()
print("max()", w.grad)
w.grad = None
w.min().backward()
print("min()", w.grad)
