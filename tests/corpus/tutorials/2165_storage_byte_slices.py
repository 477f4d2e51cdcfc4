# Looking at the bytes under a tensor: slices of its untyped storage share its memory.
import torch

t = torch.tensor([1.0, 2.0, -0.5])
raw = t.untyped_storage()
print(raw.nbytes(), len(raw))

second = raw[4:8]
print(type(second).__name__, second.nbytes(), second.data_ptr() - raw.data_ptr())
print(second.tolist(), raw[-4:].tolist(), raw[10:99].tolist(), raw[6:2].nbytes())
print(second[1:3].tolist(), second[1:3].data_ptr() - raw.data_ptr())
print(second == raw, raw[0:12] == raw, raw[4:8] == second)

second[3] = 0xC0  # flip the sign bit of 2.0
print(t)

view = t[1:]
print(view.untyped_storage()[4:8].tolist() == second.tolist())
print(raw[0:4])

for bad in (slice(0, 8, 2), slice(None, None, -1)):
    try:
        raw[bad]
    except RuntimeError as e:
        print("RuntimeError:", e)
