# Reporting a model's weights as text with NumPy: array2string with a separator and a
# precision, array_repr / array_str, dtype objects, and silencing NumPy's floating-point
# warnings around a log of probabilities.
import numpy as np
import torch

torch.manual_seed(3)
layer = torch.nn.Linear(3, 2)
w = layer.weight.detach().numpy().astype(np.float64)
print(np.array2string(w, precision=3, separator=", "))
print(np.array2string(w, precision=2, suppress_small=True, max_line_width=30))
print(np.array_repr(w.round(4)), np.array_str(w, precision=1), sep="\n")
print(np.array2string(np.arange(2000), threshold=10, edgeitems=2))
print("weights = " + np.array2string(np.arange(4.0), prefix="weights = "))

dt = np.dtype("float32")
print(dt, repr(dt), dt.itemsize, dt.name, dt == np.float32, np.dtype(float), np.dtype(np.int64))
print(
    isinstance(w.dtype, np.dtype),
    w.dtype == np.dtype("f8"),
    np.dtype("complex64"),
    np.dtype(complex),
)
print(np.zeros(2, dtype=np.dtype("int32")), w.astype(np.dtype("float32")).dtype)

probs = torch.softmax(torch.tensor([[2.0, 0.0, -30.0]]), dim=1).numpy().astype(np.float64)
probs[0, 2] = 0.0
with np.errstate(divide="ignore"):
    logp = np.log(probs)
print(np.round(logp, 4), np.geterr()["divide"])
before = np.seterr(all="ignore")
print(before == {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"})
print(np.array([1.0, -1.0]) / 0.0, np.geterr())
np.seterr(**before)
print(np.geterr())

try:
    np.dtype(torch.float32)
except TypeError as e:
    print("TypeError:", e)
