# Looking at how activations and gradients are spread, the way the makemore lectures plot
# them: torch.histogram with its default 100 bins, density, a fixed range, weights, out=,
# histc's defaults, and the errors for a range that is not finite.
import torch

torch.manual_seed(0)
x = torch.randn(64, 10, dtype=torch.float64)
w = torch.randn(10, 20, dtype=torch.float64) / 10**0.5
h = torch.tanh(x @ w)

hy, hx = torch.histogram(h, density=True)
print(hy.shape, hx.shape, hy.dtype)
print(round(float((hy * (hx[1:] - hx[:-1])).sum()), 6))
print(round(float(hx[0]), 4), round(float(hx[-1]), 4))
saturated = (h.abs() > 0.97).float().mean()
print(f"saturated: {saturated.item() * 100:.2f}%")

counts, edges = h.histogram(bins=8, range=(-1.0, 1.0))
print(counts, edges)
print(h.flatten().histogram(4, weight=torch.ones(h.numel(), dtype=torch.float64) * 0.5).hist)
res = torch.histogram(torch.tensor([0.1, 0.4, 0.45, 0.9]))
print(res.hist.nonzero().flatten().tolist(), res.bin_edges[:3])
print(torch.histogram(torch.tensor([1.0, 2.0, 2.5]), torch.tensor([0.0, 2.0, 3.0])))

hist_out, edges_out = torch.empty(0), torch.empty(0)
r = torch.histogram(torch.tensor([0.1, 0.4, 0.45, 0.9]), 2, out=(hist_out, edges_out))
print(r, r.hist is hist_out, hist_out, edges_out)

print(torch.histc(h.float())[:10].tolist(), torch.histc(h, bins=5, min=-1, max=1))
print(torch.histc(torch.tensor([2.0, 2.0, 2.0]), bins=4))

for bad in (
    lambda: torch.histogram(torch.tensor([float("nan"), 1.0])),
    lambda: torch.histogram(torch.tensor([1.0, 2.0]), 3, range=(0.0, float("inf"))),
    lambda: torch.histogram(torch.tensor([1.0, 2.0]), 3, range=(2.0, 1.0)),
    lambda: torch.histc(torch.tensor([float("inf"), 1.0])),
    lambda: torch.histc(torch.tensor([1.0]), bins=3, min=2, max=1),
    lambda: torch.histc(torch.tensor([1.0]), bins=0),
):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)
try:
    torch.histogram(torch.tensor([1.0, 2.0]), 2.5)
except TypeError as e:
    print("TypeError:", str(e).splitlines()[0])
try:
    torch.histogram(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 3.0]), range=(0.0, 1.0))
except TypeError as e:
    print("TypeError:", str(e).splitlines()[0])
