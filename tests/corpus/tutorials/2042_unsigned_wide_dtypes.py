# torch.uint16 / uint32 / uint64: PyTorch has them with only some of its operations.
# Making them, converting, the few kernels that exist, and the errors of the rest.
import torch

counts = torch.tensor([7, 0, 3, 4000000000], dtype=torch.uint32)
print(counts, counts.dtype, counts.element_size(), counts.is_signed())
pixels = torch.tensor([[0, 65535], [1024, 7]], dtype=torch.uint16)
print(pixels, pixels.type())
ids = torch.tensor([2**64 - 1, 12345678901234567890], dtype=torch.uint64)
print(ids)
print(torch.zeros(2, dtype=torch.uint64), torch.full((3,), 9, dtype=torch.uint16))

print(torch.iinfo(torch.uint16), torch.iinfo(torch.uint32), torch.iinfo(torch.uint64))
print(torch.iinfo(torch.uint32).bits, torch.iinfo(torch.uint64).max)

# what works: conversions, products, sums, equality, bitwise and/or/xor, sorting
print(counts.to(torch.int64), counts.double())
print(counts * 2, counts / 2)
print(counts.sum(), pixels.sum(0), counts.cumsum(0), pixels.prod())
print(counts == 3, counts != 0, torch.equal(counts, counts.clone()))
print(counts & 5, counts | 1, counts ^ 3)
print(counts.sort(), counts.argsort(descending=True))
print(counts[counts == 3], counts[1:], torch.cat([counts, counts]).shape)
print(pixels.t(), pixels.reshape(4), pixels.flatten().unique())
print(torch.where(torch.tensor([True, False, True, False]), counts, counts * 0))
print(counts.float().mean(), counts.mean(dtype=torch.float64))
print(torch.result_type(counts, 1), torch.result_type(counts, 1.0))
torch.manual_seed(0)
print(torch.randint(0, 100, (4,), dtype=torch.uint16))

# what PyTorch does not have for them: its own errors
attempts = {
    "counts + 1": lambda: counts + 1,
    "counts - counts": lambda: counts - counts,
    "counts < 5": lambda: counts < 5,
    "counts.max()": lambda: counts.max(),
    "counts.min(0)": lambda: pixels.min(0),
    "counts.argmax()": lambda: counts.argmax(),
    "counts // 2": lambda: counts // 2,
    "counts % 2": lambda: counts % 2,
    "~counts": lambda: ~counts,
    "counts << 1": lambda: counts << 1,
    "counts.abs()": lambda: counts.abs(),
    "-counts": lambda: -counts,
    "counts ** 2": lambda: counts**2,
    "counts.clamp(0, 5)": lambda: counts.clamp(0, 5),
    "counts.flip(0)": lambda: counts.flip(0),
    "pixels @ pixels": lambda: pixels @ pixels,
    "counts @ counts": lambda: counts @ counts,
    "counts.mean()": lambda: counts.mean(),
    "counts.var()": lambda: counts.var(),
    "counts.sum(dtype=torch.uint32)": lambda: counts.sum(dtype=torch.uint32),
    "torch.div(counts, 2, rounding_mode='floor')": lambda: torch.div(
        counts, 2, rounding_mode="floor"
    ),
    "counts + int64": lambda: counts + torch.tensor([1, 2, 3, 4]),
    "torch.promote_types": lambda: torch.promote_types(torch.uint16, torch.uint8),
    "torch.arange": lambda: torch.arange(5, dtype=torch.uint32),
    "counts.topk(2)": lambda: counts.topk(2),
    "counts.nonzero()": lambda: counts.nonzero(),
}
for text, attempt in attempts.items():
    try:
        print(text, attempt())
    except RuntimeError as e:
        print(f"{text}: {type(e).__name__}: {e}")

# float results are computed: a uint tensor with a float tensor or number
print(counts + torch.ones(4), counts * 0.5)
inplace = counts.clone()
inplace *= 3
print(inplace)
try:
    inplace += 1
except RuntimeError as e:
    print(e)
