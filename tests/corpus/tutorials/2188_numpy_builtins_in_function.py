# A parameter-free layer written with NumPy inside a custom Function (the numpy-extension
# pattern): Python's abs() of an array, float() / int() of 0-d arrays, and their errors.
import numpy as np
import torch
from numpy.fft import irfft2, rfft2


class SpectrumMagnitude(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        spectrum = abs(rfft2(x.detach().numpy()))
        return x.new(spectrum)

    @staticmethod
    def backward(ctx, grad_output):
        back = irfft2(grad_output.numpy())
        return grad_output.new(back)


torch.manual_seed(0)
x = torch.randn(4, 4, dtype=torch.float64, requires_grad=True)
y = SpectrumMagnitude.apply(x)
print(y.shape, y.dtype)
y.sum().backward()
print(x.grad)

peak = np.array(np.max(abs(np.array([-3.5, 2.0, 1.25]))))
print(float(peak), int(peak), complex(np.array(0.5)), abs(np.array([-2, 3], dtype=np.int16)))
for bad in (np.array([1.0, 2.0]), np.array(1 + 2j)):
    try:
        print(float(bad))
    except TypeError as err:
        print("TypeError:", err)
try:
    round(np.array(2.567), 2)
except TypeError as err:
    print("TypeError:", err)
