# Importing a name a PyTorch module does not have fails at the import, as Python's
# ImportError (an older tutorial's import path), where the module itself exists.
import torch

try:
    from torch.masked.maskedtensor import masked_tensor
except ImportError as e:
    print("ImportError:", str(e).split(" (")[0])
from torch.masked import masked_tensor, as_masked_tensor

print(callable(masked_tensor), callable(as_masked_tensor))
try:
    from torch.fft import rfft, fft_shift
except ImportError as e:
    print("ImportError:", str(e).split(" (")[0])
from torch.fft import rfft

print(rfft(torch.tensor([1.0, 2.0, 3.0, 4.0])))
