# Counting 2-D points in a grid of bins: torch.histogramdd with equal bins, given edges,
# weights and a density, beside the 1-D torch.histogram of one coordinate.
import torch

torch.manual_seed(7)
pts = torch.randn(40, 2)
pts[:, 1] = pts[:, 1] * 2 + 0.5

counts, (ex, ey) = torch.histogramdd(pts, bins=[4, 3])
print(counts)
print(ex)
print(ey)
print(counts.sum().item(), counts.shape)

w = torch.linspace(0.1, 2.0, 40)
hist = torch.histogramdd(pts, bins=[torch.tensor([-3.0, -1.0, 0.0, 1.0, 3.0]),
                                    torch.tensor([-4.0, 0.0, 4.0])], weight=w)
print(hist.hist)

dens = torch.histogramdd(pts.double(), bins=3, range=[-2.0, 2.0, -3.0, 4.0], density=True)
print(dens.hist)
area = (dens.bin_edges[0].diff()[:, None] * dens.bin_edges[1].diff()[None, :])
print((dens.hist * area).sum())

h1 = torch.histogram(pts[:, 0], bins=4)
print(torch.equal(h1.hist, counts.sum(1)), torch.equal(h1.bin_edges, ex))

cloud = torch.rand(2, 10, 3)
print(torch.histogramdd(cloud, bins=2).hist)
try:
    torch.histogramdd(pts, bins=[2, 2, 2])
except RuntimeError as e:
    print("RuntimeError:", e)
