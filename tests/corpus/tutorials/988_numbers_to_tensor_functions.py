# Python numbers given to functions that take tensors: PyTorch's errors, caught
import torch
import torch.nn.functional as F
import torch.special as special


def attempt(label, fn):
    try:
        print(label, fn())
    except (TypeError, AttributeError, ValueError) as e:
        print(label, type(e).__name__ + ":", e)


attempt("softmax dim", lambda: F.softmax(2.0, dim=0))
attempt("softmax", lambda: F.softmax(2.0))
attempt("log_softmax", lambda: F.log_softmax(1, 0))
attempt("softmin", lambda: F.softmin(3.0, dim=-1))
attempt("deg2rad", lambda: torch.deg2rad(180.0))
attempt("rad2deg", lambda: torch.rad2deg(1))
attempt("signbit", lambda: torch.signbit(-1.0))
attempt("isposinf", lambda: torch.isposinf(float("inf")))
attempt("entr", lambda: special.entr(0.5))
attempt("ndtr", lambda: torch.special.ndtr(0.0))
attempt("i1", lambda: special.i1(1.0))
attempt("vector_norm", lambda: torch.linalg.vector_norm(3.0))
attempt("celu_", lambda: F.celu_(1.0))
attempt("diagflat", lambda: torch.diagflat(2.0))
attempt("positive", lambda: torch.positive(2))
attempt("is_grad_enabled", lambda: torch.is_grad_enabled(True))
attempt("sin", lambda: torch.sin(1.0))
# what works: a tensor, or Python's math for a number
print(F.softmax(torch.tensor([1.0, 2.0]), dim=0), torch.deg2rad(torch.tensor(180.0)))
