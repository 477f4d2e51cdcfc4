# Complex signals: masking, filling and scattering entries, with gradients
import torch

z = torch.tensor([[1 + 2j, 3 - 1j, -0.5 + 0.25j], [2j, 1.5, -1 - 1j]], dtype=torch.complex128,
                 requires_grad=True)
mask = z.detach().abs() > 2

# zero out the large entries, or put a fixed phase there
print(z.masked_fill(mask, 0))
print(z.masked_fill(mask, 1j))
print(torch.where(mask, z, 0.5j))
print(torch.where(mask, 2j, 3))

# blend two signals
w = torch.tensor([[0.5j, 1, -1 + 1j], [1, 1, 1]], dtype=torch.complex128)
mixed = torch.lerp(z, w, 0.25)
print(mixed)

# index operations keep the complex values as they are
idx = torch.tensor([2, 0])
print(z.index_select(1, idx))
print(z.gather(1, torch.tensor([[1, 1], [0, 2]])))
print(z.masked_select(mask))
print(z.index_fill(1, torch.tensor([1]), -2j))
src = torch.ones(2, 2, dtype=torch.complex128) * (1 + 1j)
print(z.index_add(1, idx, src, alpha=2))
print(z.index_copy(1, idx, src))
print(z.scatter(1, torch.tensor([[0], [2]]), src))
print(torch.triu(z), z.repeat(1, 2).shape)

loss = (mixed.abs() ** 2).sum() + z.index_add(1, idx, src).abs().sum() + z.masked_fill(mask, 2).real.sum()
loss.backward()
print(z.grad)

c = torch.zeros(3, dtype=torch.complex64)
c[1] = 2 - 3j
c.masked_fill_(torch.tensor([True, False, False]), 1j)
print(c)
print(torch.zeros(2).fill_(4 + 0j))
try:
    torch.zeros(2).masked_fill(torch.tensor([True, False]), 1j)
except RuntimeError as e:
    print(e)
try:
    torch.zeros(2).index_fill(0, torch.tensor([0]), 1j)
except RuntimeError as e:
    print(e)
try:
    z.clamp(min=0)
except NotImplementedError as e:
    print(e)
