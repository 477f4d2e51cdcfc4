# numpy.printoptions as a context manager, and print options PyTorch and NumPy take and fail on
# later or refuse at once, in their words (feat24).
import torch
import numpy as np

x = torch.tensor([1.123456789, 2.5])
with np.printoptions(precision=2, suppress=True) as opts:
    print(np.array([1.123456, 1e-9]))
    print(opts["precision"], opts["suppress"])
print(np.array([1.123456, 1e-9]))
with np.printoptions(precision=3):
    print(x.numpy())


def t(f):
    try:
        r = f()
        print("ok", r)
    except Exception as e:
        print(type(e).__name__, e)


t(lambda: torch.set_printoptions(precision=2.0))
t(lambda: print(x))
torch.set_printoptions(profile="default")
t(lambda: torch.set_printoptions(precision="a"))
t(lambda: print(x))
torch.set_printoptions(profile="default")
t(lambda: torch.set_printoptions(profile="fancy"))
t(lambda: print(x))
t(lambda: torch.set_printoptions(linewidth=-5))
t(lambda: print(x))
torch.set_printoptions(profile="default")
t(lambda: np.set_printoptions(precision=2.5))
t(lambda: np.set_printoptions(threshold="x"))
t(lambda: np.set_printoptions(foo=1))
t(lambda: torch.set_printoptions(foo=1))
try:
    with np.printoptions(precision=1):
        print(np.array([3.14159]))
        raise ValueError("inside")
except ValueError as e:
    print(e, np.array([3.14159]))
torch.set_printoptions(precision=2.0)
print(torch.tensor([1.0, 2.0]), torch.tensor([1, 2]))
try:
    print(torch.tensor([1e-9, 1.0]))
except ValueError as e:
    print(e)
torch.set_printoptions(precision=4)
print(torch.tensor([1.5, 2.25]))
