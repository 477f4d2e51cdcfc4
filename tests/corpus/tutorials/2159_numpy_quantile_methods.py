# Summaries of per-sample losses from a PyTorch model with NumPy's quantile methods, and the
# checks a utility function makes on what it is given (ufuncs, generators, scalar parts).
import numpy as np
import torch

torch.manual_seed(5)
model = torch.nn.Linear(3, 1).double()
x = torch.randn(9, 3, dtype=torch.float64)
y = torch.randn(9, 1, dtype=torch.float64)
with torch.no_grad():
    losses = ((model(x) - y) ** 2).squeeze(1).numpy()
print(np.round(losses, 4))
for method in ("linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf"):
    print(method, np.round(np.quantile(losses, [0.1, 0.5, 0.9], method=method), 4))
print(np.round(np.percentile(losses, 75, method="median_unbiased"), 4))
print(np.round(np.quantile(losses, 0.5, method="inverted_cdf", weights=np.arange(1.0, 10.0)), 4))


def reduce_with(op, values):
    if not isinstance(op, np.ufunc):
        raise TypeError("expected a NumPy ufunc")
    return op.reduce(values)


print(np.round(reduce_with(np.add, losses), 4), np.round(reduce_with(np.maximum, losses), 4))
try:
    reduce_with(sum, losses)
except TypeError as e:
    print("TypeError:", e)

rng = np.random.default_rng(3)
print(isinstance(rng, np.random.Generator), np.random.default_rng(rng) is rng)
z = np.complex128(losses[0] + 1j * losses[1])
print(type(z.real).__name__, np.round(z.real, 4), repr(np.float32(1.5).imag))
