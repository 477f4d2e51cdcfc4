# Views share their tensor's storage; contiguous() of a transposed tensor copies it.
import torch

x = torch.arange(6.0).view(2, 3)
print(x.storage())
t = x.t()
print("t shares x's storage:", t.storage().data_ptr() == x.storage().data_ptr())
print("t is contiguous:", t.is_contiguous(), t.stride())
c = t.contiguous()
print("c shares x's storage:", c.storage().data_ptr() == x.storage().data_ptr())
print(c.storage())
print(len(x.storage()), x.storage().element_size(), x.storage().nbytes())
row = x[1]
print(row.storage_offset(), row.storage().tolist())
ints = torch.tensor([[1, -2], [3, 4]])
print(ints.t().storage())

# a buffer as a sliding window over a signal
signal = torch.arange(10.0, requires_grad=True)
frames = signal.as_strided((4, 4), (2, 1))
print(frames)
energy = (frames**2).sum(1)
energy.sum().backward()
print(signal.grad)
