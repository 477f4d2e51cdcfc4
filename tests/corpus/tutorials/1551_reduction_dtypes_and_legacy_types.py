# Reductions told which dtype to work in, the older typed constructors, and the errors a
# notebook shows on purpose when a dtype is wrong.
import torch

prices = torch.tensor([1.5, 2.5, 4.0])
counts = torch.tensor([3, 1, 2])
print(prices.prod(dtype=torch.float64))
print(prices.prod(dtype=torch.int32))  # each price truncated first, then multiplied
print(torch.prod(counts, 0, dtype=torch.int16))
print(counts.sum(dtype=torch.int16), counts.sum(dtype=torch.uint8), counts.sum(dtype=torch.bool))
print(counts.cumsum(0, dtype=torch.int16), counts.cumprod(0, dtype=torch.int8))
print(torch.nansum(prices, dtype=torch.int16))
print(torch.tensor([200, 100], dtype=torch.uint8).sum(dtype=torch.uint8))  # wraps as uint8

w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
for name, f in [
    ("sum", lambda: w.sum(dtype=torch.int64)),
    ("prod", lambda: w.prod(dtype=torch.int32)),
    ("cumsum", lambda: w.cumsum(0, dtype=torch.int32)),
    ("mean", lambda: w.mean(dtype=torch.int64)),
]:
    try:
        print(name, f())
    except RuntimeError as e:
        print(name, "->", e)
print(w.sum(dtype=torch.float64))
with torch.no_grad():
    print(w.sum(dtype=torch.int64))

# the typed constructors of older code
for T in (torch.ShortTensor, torch.CharTensor, torch.HalfTensor, torch.BFloat16Tensor):
    t = T([1, 2, 3])
    print(T.__name__, t, t.type(), isinstance(t, T), T(2, 2).shape)
print(torch.randn(2).type(torch.HalfTensor).dtype)

x = torch.arange(6.0).reshape(2, 3)
print(torch.gather(x, 1, torch.tensor([[0], [2]]), sparse_grad=False))
try:
    ~x
except TypeError as e:
    print("TypeError:", e)
print(~(x > 2))
try:
    torch.arange(4, dtype=torch.bool)
except NotImplementedError as e:
    print("NotImplementedError:", e)
