# Which out-of-bounds index an error names (the first one in row-major order), and the
# kernels that take only integer counts: probing errors the way a debugging session does.
import torch

x = torch.arange(6.0).reshape(2, 3)
grid = torch.zeros(3, 3)
cube = torch.zeros(2, 3, 4)
bad2 = torch.tensor([[0, 5], [-1, 0]])
bad3 = torch.tensor([[[0, 7], [-1, 0]], [[5, 0], [0, 0]]])


def show(label, f):
    try:
        print(label, f())
    except (RuntimeError, TypeError, IndexError, NotImplementedError) as e:
        print(label, type(e).__name__, str(e).split("\n")[0])


show("bincount", lambda: torch.bincount(torch.tensor([0.0, 1.0])))
show(
    "repeat float", lambda: torch.repeat_interleave(torch.tensor([1, 2]), torch.tensor([1.5, 2.0]))
)
show(
    "repeat int16",
    lambda: torch.tensor([1, 2]).repeat_interleave(torch.tensor([1, 2], dtype=torch.int16)),
)
show(
    "repeat int32",
    lambda: torch.tensor([1, 2]).repeat_interleave(torch.tensor([1, 2], dtype=torch.int32)),
)
show("scatter dim 1", lambda: x.scatter(1, bad2, 1.0))
show("scatter_add dim 1", lambda: x.scatter_add(1, bad2, torch.ones(2, 2)))
show("scatter_ 1-d", lambda: torch.zeros(3).scatter_(0, torch.tensor([4, -2]), 1.0))
show("scatter dim 0", lambda: grid.scatter(0, bad2, 1.0))
show("gather dim 0", lambda: grid.gather(0, bad2))
show("gather dim 1", lambda: grid.gather(1, bad2))
show("gather 3-d", lambda: cube.gather(1, bad3))
show("scatter 3-d", lambda: cube.scatter(2, bad3, 1.0))
