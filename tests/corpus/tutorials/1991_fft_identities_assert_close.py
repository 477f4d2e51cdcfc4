# Checking FFT identities the way the torch.fft docs do: a 2-D transform is two 1-D ones,
# rfft is the first half of fft, and the hermitian transforms undo each other.
import torch

torch.manual_seed(3)
sig = torch.randn(6, 5, dtype=torch.complex128)

both = torch.fft.fft2(sig)
by_axis = torch.fft.fft(torch.fft.fft(sig, dim=0), dim=1)
print("fft2 == two ffts:", torch.testing.assert_close(both, by_axis, check_stride=False))

real = torch.randn(4, 7, dtype=torch.float64)
half = torch.fft.rfft2(real)
full = torch.fft.fft2(real)
print(half.shape, full.shape)
torch.testing.assert_close(full[..., : half.shape[-1]], half, check_stride=False)
print("rfft2 is the first half of fft2")

spectrum = torch.fft.ihfft(real[0])
print(spectrum.shape, spectrum.dtype)
print(torch.allclose(torch.fft.hfft(spectrum, n=7), real[0]))
back = torch.fft.irfftn(torch.fft.rfftn(real), s=real.shape)
print(torch.allclose(back, real), (back - real).abs().max() < 1e-12)

# a complex check that fails, as PyTorch reports it
try:
    torch.testing.assert_close(torch.tensor([1 + 2j, 3j]), torch.tensor([1 + 2j, 2j]))
except AssertionError as err:
    print(err)
try:
    torch.testing.assert_close(both, both.to(torch.complex64))
except AssertionError as err:
    print(err)

# centring a spectrum for display, and back
centered = torch.arange(-4, 4, dtype=torch.float64)
uncentered = torch.fft.ifftshift(centered)
print(uncentered)
spec = torch.fft.fftshift(torch.fft.fft(uncentered))
print(spec.real.round(decimals=8))
again = torch.fft.fftshift(torch.fft.ifft(torch.fft.ifftshift(spec)))
torch.testing.assert_close(again, centered.to(torch.complex128))
print(torch.fft.fftshift(torch.fft.fftfreq(8, d=0.5)))

# a gradient through a complex-to-complex transform of a complex leaf
z = torch.tensor([1 + 1j, 2 - 1j, -0.5j, 0.25], dtype=torch.complex128, requires_grad=True)
energy = torch.fft.fft(z, norm="ortho").abs().pow(2).sum()
energy.backward()
print(energy.item(), z.grad)
w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], dtype=torch.float64, requires_grad=True)
out = torch.fft.ihfft2(w)
print(out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
out.real.sum().backward()
print(w.grad)
h = torch.fft.hfftn(torch.fft.ihfftn(w), s=w.shape)
print(h.grad_fn.name(), torch.allclose(h, w))
