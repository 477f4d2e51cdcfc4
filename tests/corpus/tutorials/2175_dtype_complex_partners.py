# Building a complex buffer that matches a real model's dtype, and back again: dtype's
# to_complex() / to_real() pairs, with the error an integer dtype gives.
import torch

signal = torch.linspace(0.0, 1.0, 4, dtype=torch.float64)
spectrum = signal.to(signal.dtype.to_complex()) * 1j + signal
print(spectrum)
print(spectrum.dtype, spectrum.dtype.to_real(), spectrum.real.dtype)
for dt in (torch.float32, torch.bfloat16, torch.complex64, torch.int32, torch.bool):
    try:
        print(dt, "->", dt.to_complex(), "/", dt.to_real())
    except RuntimeError as err:
        print(dt, "->", err)
