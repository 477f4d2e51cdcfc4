# Activations of a transposed batch keep the transposed layout, as PyTorch's
# elementwise kernels lay out their results like their inputs.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
feats = torch.randn(6, 4)  # (features, samples) as some datasets store them
batch = feats.t()  # (samples, features): a transposed view
print("batch:", batch.shape, batch.stride(), batch.is_contiguous())

for name, act in [
    ("tanh", torch.tanh),
    ("exp", torch.exp),
    ("sigmoid", torch.sigmoid),
    ("gelu", F.gelu),
    ("softplus", F.softplus),
    ("log1p", lambda t: t.abs().log1p()),
]:
    out = act(batch)
    print(f"{name:8s} stride={out.stride()} contiguous={out.is_contiguous()}")

h = torch.sqrt(batch.abs() + 1)
try:
    h.view(-1)
except RuntimeError as e:
    print("view:", e)
print("reshape works:", h.reshape(-1).shape)

# a permuted 3-d tensor and a mix of layouts in a binary op
cube = torch.rand(2, 3, 4).permute(2, 0, 1)
print(torch.erf(cube).stride(), torch.atan(cube).stride(), torch.log2(cube + 1).stride())
plain = torch.rand(6, 4)
print((batch.abs().sqrt() + plain.t()).stride(), (plain.t() * batch.exp()).stride())

# the gradient flows back in the parameter's own layout
w = torch.randn(6, 4, requires_grad=True)
y = torch.tanh(w.t()).exp()
print(y.stride(), y.grad_fn.name())
y.sum().backward()
print(w.grad.stride(), w.grad.shape)
