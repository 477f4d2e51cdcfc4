# Tensors are views over one block of memory: reading and writing that block
# directly through the storage (as an introductory chapter on tensors does).
import torch

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
store = points.storage()
print(store[0], store[3], store[-1])
print(store.dtype, len(store))

second = points[1]
print(second.storage_offset(), second.storage()[second.storage_offset()])

store[0] = 2.0
store[5] = 7
print(points)
print(store.tolist())

counts = torch.tensor([1, 2, 3])
cs = counts.storage()
cs[1] = 9.8
print(counts, cs.dtype)

one = torch.tensor([1.0])
raw = one.untyped_storage()
print([raw[i] for i in range(len(raw))])
raw[3] = 64
print(one, raw.tolist())

for bad in (6, 2.0, slice(0, 2)):
    try:
        print(store[bad])
    except (IndexError, TypeError, RuntimeError) as e:
        print(type(e).__name__, e)
