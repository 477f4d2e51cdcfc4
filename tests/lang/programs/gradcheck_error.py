import torch
from torch.autograd.gradcheck import GradcheckError, gradcheck
x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    gradcheck(torch.sin, (x,))
except GradcheckError as e:
    print(type(e), type(e).__name__, isinstance(e, RuntimeError), isinstance(e, GradcheckError))
    print(GradcheckError, issubclass(GradcheckError, RuntimeError) if False else "")
try:
    raise GradcheckError("boom")
except RuntimeError as e:
    print(repr(e), e)
