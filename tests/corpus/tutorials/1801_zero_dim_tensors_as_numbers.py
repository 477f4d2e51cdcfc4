# A 0-dim tensor (one that needs no gradient) works where PyTorch wants a plain number:
# range bounds, a step, the mean and std of torch.normal with a size.
import torch

torch.manual_seed(7)
lengths = torch.tensor([3, 5, 2])
offsets = torch.cumsum(lengths, 0) - lengths
for off, n in zip(offsets, lengths):
    print(torch.arange(off, off + n))

scores = torch.tensor([0.1, 0.7, 0.4, 0.9])
best = scores.argmax()
print(torch.arange(best), torch.arange(best, dtype=torch.float64))
print(torch.arange(scores[0], scores[3], scores[0]))
print(
    torch.arange(torch.tensor(2, dtype=torch.int32), 6),
    torch.arange(torch.tensor(1.0, dtype=torch.float64), 3),
)
print(torch.arange(start=best, end=8, step=torch.tensor(2)))

mu, sigma = scores.mean(), scores.std()
noise = torch.normal(mu, sigma, (2, 3))
print(noise.shape, noise.dtype)
print(torch.normal(0.0, torch.tensor(2.0, dtype=torch.float64), size=(3,)))

# a tensor that carries a gradient, or holds more than one number, is not a number
w = torch.tensor(4.0, requires_grad=True)
for make in (
    lambda: torch.arange(w),
    lambda: torch.arange(lengths[:1]),
    lambda: torch.arange(0, 9, lengths[:1]),
):
    try:
        make()
    except TypeError as e:
        print(str(e).splitlines()[0])
try:
    torch.normal(scores, 1.0, (4,))
except TypeError as e:
    print(str(e).splitlines()[0])
print(torch.arange(w.item()), torch.arange(w.detach()))

# the same for a rate or slope kept in a tensor
rate = torch.tensor(0.25)
h = torch.linspace(-2, 2, 5)
print(torch.nn.functional.leaky_relu(h, rate), torch.nn.functional.softplus(h, beta=rate * 4))
print(torch.nn.functional.dropout(torch.ones(8), p=rate).count_nonzero() <= 8)
print(torch.nn.Dropout(rate)(torch.ones(4)).shape, torch.nn.LeakyReLU(rate)(h))

# integers held in tensors for sizes and offsets, numbers for a norm's order or a correction
k = torch.tensor(1)
grid = torch.arange(12.0).reshape(3, 4)
print(torch.tril(grid, diagonal=k), grid.triu(k - 1).sum())
print(torch.nn.functional.pad(grid, (k, k)).shape, grid.std(dim=1, correction=k - 1))
print(torch.nn.functional.normalize(grid, p=k.float())[0], grid.norm(p=torch.tensor(3.0)))
print(grid.renorm(2, 0, torch.tensor(5.0))[2])
