# Complex numbers have no order: the reductions and comparisons that need one refuse a complex
# tensor with PyTorch's own errors, while magnitudes (abs) can be reduced as usual.
import torch

phases = torch.tensor([0.0, 0.7, 2.1, -1.2])
spectrum = torch.polar(torch.tensor([1.0, 0.5, 2.0, 1.5]), phases)

attempts = {
    "spectrum.max()": lambda: spectrum.max(),
    "spectrum.min(dim=0)": lambda: spectrum.min(dim=0),
    "torch.max(spectrum, spectrum)": lambda: torch.max(spectrum, spectrum),
    "spectrum.amax()": lambda: spectrum.amax(),
    "torch.amin(spectrum, 0)": lambda: torch.amin(spectrum, 0),
    "spectrum.sort()": lambda: spectrum.sort(),
    "spectrum.argmax()": lambda: spectrum.argmax(),
    "spectrum.topk(2)": lambda: spectrum.topk(2),
}
for text, call in attempts.items():
    try:
        call()
        print(text, "ran")
    except NotImplementedError as e:
        print(text, "-> NotImplementedError:", e)
    except RuntimeError as e:
        print(text, "-> RuntimeError:", e)

magnitude = spectrum.abs()
print("largest magnitude:", magnitude.max().item(), "at", magnitude.argmax().item())
print("sorted magnitudes:", magnitude.sort().values)
