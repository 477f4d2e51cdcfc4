# torch.func's jacrev/jacfwd/hessian wrappers take positional arguments only: a keyword
# argument fails in Python's words, naming the function by PyTorch's qualified name.
import torch
import torch.nn.functional as F
from torch.func import hessian, jacfwd, jacrev

x = torch.tensor([0.5, 1.0, 2.0])
for transform in (jacrev, jacfwd, hessian):
    for fn, kw in ((F.softmax, {"dim": 0}), (torch.softmax, {"dim": 0}), (torch.sum, {"dim": 0}),
                   (F.gelu, {"approximate": "tanh"}), (torch.logsumexp, {"dim": 0})):
        try:
            transform(fn)(x, **kw)
        except TypeError as e:
            print(transform.__name__, e)

# the way that works: positional, or a lambda
print(jacrev(torch.softmax)(x, 0))
print(jacfwd(lambda t: F.gelu(t, approximate="tanh"))(x))
