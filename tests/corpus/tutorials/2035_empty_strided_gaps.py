# torch.empty_strided with padded rows and with a column layout: the strides asked for are
# kept (with gaps between rows), the values written in are read back, views and
# as_strided stay within the storage, and computing with it gives contiguous results.
import torch

padded = torch.empty_strided((3, 4), (6, 1), dtype=torch.float64)
padded.copy_(torch.arange(12.0).view(3, 4))
print(padded)
print(padded.stride(), padded.is_contiguous(), padded.untyped_storage().size())
print(padded[1].stride(), padded[:, 2].stride(), padded.t().stride())
print(padded.as_strided((2, 2), (6, 1), 1))
try:
    padded.view(12)
except RuntimeError as e:
    print(e)
flat = padded.reshape(12)
print(flat.stride(), flat[-3:])

cols = torch.empty_strided((2, 3), (1, 2))
cols.fill_(0.5)
print(cols.stride(), cols.t().is_contiguous(), (cols + 1).stride())

w = torch.empty_strided((2, 3), (4, 1), dtype=torch.float64, requires_grad=True)
with torch.no_grad():
    w.copy_(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))
loss = (w * w).sum()
loss.backward()
print(w.grad, w.grad.stride(), torch.empty_like(w).stride())
try:
    w.detach().as_strided((3, 4), (4, 1))
except RuntimeError as e:
    print(e)
