# A Python bool as an exponent or base: it does not promote (x ** True is x, a bool tensor
# stays bool), as PyTorch (feat24; was refused).
import torch


def t(f):  # (each lambda binds the base it was made for)
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, str(e)[:80])


x = torch.tensor([1.5, -2.0], requires_grad=True)
i = torch.tensor([5, 6])
b = torch.tensor([True, False])
for base in (x, i, b):
    t(lambda base=base: base**True)
    t(lambda base=base: base**False)
    t(lambda base=base: True**base)
    t(lambda base=base: False**base)
    t(lambda base=base: torch.pow(base, True))
y = x**True
y.sum().backward()
print(x.grad)
