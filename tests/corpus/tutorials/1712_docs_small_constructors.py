# Small corners of the reference pages: a generator's device, complex conversions, tensors laid
# out by hand, and nonzero with a fixed number of rows.
import torch

gen = torch.Generator()
print(gen.device, gen.device == torch.device("cpu"))
print(torch.default_generator.device.type)

w = torch.tensor([0.5, -1.25, 3.0], requires_grad=True)
z = w.cdouble() * (1 + 2j)
print(z)
print(z.dtype, w.cfloat().dtype)
z.abs().sum().backward()
print(w.grad)

buf = torch.empty_permuted((2, 4, 3, 3), (0, 2, 3, 1))
print(buf.shape, buf.stride(), buf.is_contiguous())
print(buf.is_contiguous(memory_format=torch.channels_last))
other = torch.ones(3, dtype=torch.float64).new_empty_strided((3, 2), (1, 3))
print(other.shape, other.stride(), other.dtype)
for layout in [(1, 1, 0, 2), (0, 1, 2)]:
    try:
        torch.empty_permuted((2, 3, 4, 5), layout)
    except RuntimeError as e:
        print("RuntimeError:", e)

mask = torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])
print(torch.nonzero_static(mask, size=5))
print(mask.nonzero_static(size=2, fill_value=9))
print(torch.nonzero_static(mask > 0, size=0).shape)
