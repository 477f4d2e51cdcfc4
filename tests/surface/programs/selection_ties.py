# Which element median, mode, cummax and cummin pick when values tie, and where the gradient
# goes: PyTorch's CPU kernels' choices (mode sorts with std::sort, which is not stable past 16
# elements, so long rows pick other indices than short ones).
import torch

a = torch.tensor(
    [
        [3.0, 2, 2, 3, 2, 3, 3, 0, 0, 1, 1, 3, 3, 0, 1, 3, 0, 3, 0, 1],
        [3.0, 1, 1, 1, 2, 1, 3, 1, 1, 2, 2, 2, 2, 3, 3, 3, 2, 2, 1, 3],
        [1.0, 0, 3, 0, 3, 2, 0, 0, 1, 0, 0, 2, 3, 1, 3, 3, 3, 2, 1, 2],
    ],
    requires_grad=True,
)
print(torch.mode(a, 1))
print(torch.mode(a[:, :12], 1))
print(torch.median(a, 1))
print(torch.median(a, 0, keepdim=True))
print(torch.cummax(a[:, :8], 1).indices)
print(torch.cummin(a[:, :8], 1).indices)
(torch.mode(a, 1).values.sum() + torch.median(a, 1).values.sum() * 2).backward()
print(a.grad)

b = torch.tensor(
    [
        [
            0,
            1,
            1,
            0,
            2,
            0,
            0,
            0,
            2,
            2,
            2,
            0,
            2,
            1,
            1,
            0,
            1,
            2,
            1,
            0,
            1,
            0,
            2,
            2,
            0,
            1,
            2,
            2,
            2,
            1,
            0,
            2,
            1,
            0,
            0,
            1,
            2,
            1,
            1,
            2,
        ],
        [
            2,
            1,
            1,
            1,
            0,
            0,
            1,
            1,
            1,
            0,
            0,
            0,
            1,
            2,
            1,
            1,
            1,
            2,
            1,
            1,
            1,
            1,
            1,
            1,
            1,
            2,
            2,
            0,
            1,
            1,
            1,
            0,
            0,
            1,
            2,
            0,
            1,
            2,
            2,
            0,
        ],
    ]
)
print(b.mode())
print(b.t().mode(dim=0))
c = torch.tensor(
    [
        0,
        3,
        0,
        1,
        2,
        4,
        0,
        3,
        2,
        0,
        4,
        4,
        2,
        4,
        3,
        4,
        4,
        2,
        1,
        0,
        2,
        0,
        3,
        4,
        1,
        2,
        0,
        0,
        1,
        4,
        4,
        3,
        2,
    ]
)
print(torch.mode(c), torch.median(c), c.median(0))

n = float("nan")
d = torch.tensor(
    [[1.0, n, 2.0, n, 0.0], [n, n, n, n, n], [4.0, 4.0, 1.0, 1.0, 2.0]], requires_grad=True
)
print(torch.median(d, 1))
print(torch.nanmedian(d, 1))
print(torch.median(d), torch.nanmedian(d), torch.nanmedian(d[2]))
print(torch.cummax(d, 1))
print(torch.cummin(d, 1).indices)
torch.nanmedian(d, dim=1).values[2].backward()
print(d.grad)

e = torch.tensor([2.0, 5.0, 5.0, 1.0, 5.0], requires_grad=True)
torch.median(e).backward()
torch.cummax(e, 0).values.sum().backward()
print(e.grad)
e.grad = None
torch.median(torch.tensor([5.0, 5.0, 5.0, 1.0]) * e[:4]).backward()
print(e.grad)
