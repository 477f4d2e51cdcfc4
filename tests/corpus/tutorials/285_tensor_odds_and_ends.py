# Tensor methods older scripts and utilities use: x.new, device/kind predicates,
# split_with_sizes, adjoint, isreal, gcd/lcm.
import torch

torch.manual_seed(0)
x = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)

# old-style constructors in x's dtype
buf = x.new(x.size()).zero_()
print(buf, x.new([1, 2, 3]), x.new().shape, x.new(2, 3).dtype)
grad_input = x.new(torch.Size([3])).fill_(0.5)
print(grad_input)

print(x.is_meta, x.is_sparse, x.is_quantized, x.is_mkldnn, x.is_nested, x.is_pinned(), x.is_shared())

parts = x.reshape(-1).split_with_sizes([1, 2, 3])
print([p.shape for p in parts], parts[2].grad_fn.name())
(parts[0] * 3 + parts[2].sum()).sum().backward()
print(x.grad)

print(torch.adjoint(x).shape, x.adjoint().grad_fn.name(), torch.isreal(x))
print(torch.gcd(torch.tensor([12, 18, 7]), torch.tensor([8, 27, 0])))
print(torch.lcm(torch.tensor([4, 6]), torch.tensor([6, 10])))
steps = torch.tensor([6, 10, 15])
steps.gcd_(torch.tensor([4, 4, 5]))
print(steps)
try:
    torch.gcd(torch.tensor([1.0]), torch.tensor([2.0]))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    x.split_with_sizes([2, 2])
except RuntimeError as e:
    print("RuntimeError:", e)
print(torch.tanh(torch.ones(2), out=None), torch.add(torch.ones(1), 2, out=None))
