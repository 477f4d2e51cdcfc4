# The *_copy twins of PyTorch's view functions: same values as the view, but a tensor of
# its own (changing it leaves the source alone), and a node named after the view's.
import torch

grid = torch.linspace(-1.0, 1.0, 12).reshape(3, 4).requires_grad_()
band = torch.narrow_copy(grid, 1, 1, 2)
print(band)
band_m = grid.narrow_copy(0, 0, 2)
cols = torch.unbind_copy(grid, dim=1)
print([c.grad_fn.name() for c in cols])
flat = torch.view_copy(grid, (2, 6))
turned = torch.transpose_copy(grid, 0, 1)
print(turned.is_contiguous(), turned.stride(), turned._base is None)
diag = torch.diagonal_copy(grid, offset=1)
every_other = torch.slice_copy(grid, dim=1, start=0, end=None, step=2)
print(every_other)
loss = (band**2).sum() + band_m.sum() + 3 * cols[2].sum() + flat[1].pow(3).sum()
loss = loss + turned[0].sum() + diag.exp().sum() + every_other.sum()
loss.backward()
print(grid.grad)

plain = grid.detach()
piece = torch.select_copy(plain, 0, 2)
piece.mul_(10)
print(piece, plain[2])
pair = torch.view_as_real_copy(torch.tensor([1 + 2j, -0.5j]))
print(pair, pair.grad_fn)
