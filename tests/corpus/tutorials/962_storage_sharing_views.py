# Which tensors share memory? Forum answers check it through the storage under them.
import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = w.detach()
c = w.clone()
v = w[1:]
print(w.untyped_storage().data_ptr() == d.untyped_storage().data_ptr())
print(w.untyped_storage().data_ptr() == c.untyped_storage().data_ptr())
print(v.untyped_storage().data_ptr() == w.untyped_storage().data_ptr(), v.data_ptr() == w.data_ptr())
print(w.untyped_storage() == d.untyped_storage(), w.untyped_storage() == c.untyped_storage())

s = w.untyped_storage()
print(s.nbytes(), s.size(), s.element_size())
print(s.tolist())
d[0] = -1.0  # writing through the detached tensor changes w's memory
print(w.untyped_storage().tolist()[:4], w)

print(torch.tensor([1, 2], dtype=torch.int16).untyped_storage())
print(torch.tensor([True, False, True]).untyped_storage().tolist())
print(torch.zeros(0).untyped_storage())
m = torch.arange(6.0).view(2, 3)
print(m.t().untyped_storage().nbytes(), m.t().is_contiguous())
print(type(s))
