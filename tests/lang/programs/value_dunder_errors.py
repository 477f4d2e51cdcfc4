import torch


def t(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)


x = torch.tensor([1.0, 2.0])
s = torch.tensor(2.5)
t(lambda: s.__len__())
t(lambda: x.__bool__())
t(lambda: x.__format__(".3f"))
t(lambda: x.__index__())
t(lambda: x.__getitem__(5))
t(lambda: x.__iand__(x))
t(lambda: x.__imatmul__)
t(lambda: s.__round__())
t(lambda: (3).__truediv__(0))
t(lambda: int.__add__(2.0, 1))
t(lambda: torch.Tensor.__add__(2, x))
t(lambda: torch.Tensor.__rsub__(2, x))
t(lambda: torch.Tensor.__add__(x))
t(lambda: (1.5).__invert__())
t(lambda: (1 + 1j).__lt__(2))
t(lambda: float.__add__(1, 2.0))
t(lambda: (2).__radd__(x))
t(lambda: x.__rmul__("ab"))
