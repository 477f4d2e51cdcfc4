# Subclasses of built-in layers that take `device=None, dtype=None` and hand them on to the
# base class's __init__, the way factory keyword arguments are usually threaded through.
import torch
import torch.nn as nn


class NoisyLinear(nn.Linear):
    def __init__(self, n_in, n_out, bias=True, device=None, dtype=None):
        super().__init__(n_in, n_out, bias=bias, device=device, dtype=dtype)
        self.log_scale = nn.Parameter(torch.zeros_like(self.weight))

    def forward(self, x):
        return super().forward(x) + nn.functional.linear(x, self.log_scale.exp())


class Smooth(nn.Conv1d):
    def __init__(self, **factory_kwargs):
        super().__init__(1, 1, kernel_size=3, padding=1, bias=False, **factory_kwargs)
        with torch.no_grad():
            self.weight.fill_(1 / 3)


class Norm(nn.LayerNorm):
    def __init__(self, width, dtype=None):
        super(Norm, self).__init__(width, eps=1e-6, dtype=dtype)


torch.manual_seed(1)
layer = NoisyLinear(3, 2, dtype=torch.float64)
print(layer.weight.dtype, layer.log_scale.dtype, layer.bias.dtype)
x = torch.arange(6, dtype=torch.float64).reshape(2, 3) / 5
out = layer(x).sum()
out.backward()
print(round(out.item(), 6), layer.log_scale.grad.tolist())

print(NoisyLinear(3, 2).weight.dtype)
print(NoisyLinear(4, 1, bias=False, device="cpu", dtype=torch.float16).weight.dtype)

smooth = Smooth(dtype=torch.float64)
signal = torch.tensor([[[0.0, 3.0, 0.0, 3.0, 0.0]]], dtype=torch.float64)
print(smooth(signal))

norm = Norm(4, dtype=torch.float64)
print(norm.weight.dtype, norm.eps)
print(norm(torch.tensor([[1.0, 2.0, 3.0, 4.0]], dtype=torch.float64)).tolist())
