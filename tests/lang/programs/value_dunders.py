import torch

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(torch.Tensor.__add__(a, b), a.__sub__(b), b.__rsub__(2), a.__rdiv__(2))
print(a.__truediv__(b), a.__rtruediv__(1), a.__div__(2), a.__floordiv__(2), a.__mod__(1.5))
print(a.__pow__(2), a.__rpow__(2), a.__matmul__(w), w.__matmul__(a), a.__rmatmul__(w))
print(a.__neg__(), a.__pos__(), a.__abs__(), a.__radd__(1), a.__rmul__(3))
print(a.__lt__(b), a.__eq__(a), b.__ge__(3.5), a.__ne__(2.0), a.__add__("s"), b.__eq__(None))
m = torch.tensor([6, 3])
print(m.__and__(5), m.__or__(1), m.__xor__(2), m.__lshift__(1), m.__rshift__(1), m.__invert__())
s = (a * b).sum()
print(s.__format__(".3f"), s.__float__(), s.__bool__(), torch.tensor(3).__index__(), s.__int__())
print(a.__len__(), a.__getitem__(1), a.__contains__(2.0), a.__repr__(), b.__str__())
print([t for t in b.__iter__()], b.__reversed__())
y = b.clone()
y.__setitem__(0, 5.0)
r = y.__iadd__(b)
print(y, r is y, y.__imul__(2), y.__isub__(1), y.__itruediv__(2), y)
print(int.__add__(2, 3), (3).__mul__(4), float.__truediv__(1.0, 4), (2).__add__(3.0))
print((2).__eq__(2.0), (2.0).__eq__(2), (7).__floordiv__(2), (7).__rsub__(10), (-3).__abs__())
print((2.5).__round__(), (2.567).__round__(2), (7).__divmod__(2), (5).__pow__(3, 7))
print(True.__add__(True), (1.5).__format__(".2f"), int.__mul__(True, 3), (1 + 2j).__mul__(2))
print(getattr(a, "__mul__")(b), sum([a, b], torch.zeros(2)).__neg__())  # noqa: B009
g = torch.autograd.grad(a.__rdiv__(2).__mul__(b).sum(), a)
print(g)
print(
    torch.autograd.gradcheck(
        lambda u, v: u.__rdiv__(2).__mul__(v.__rsub__(1)).__matmul__(w.double()),
        (a.detach().double().requires_grad_(), b.double().requires_grad_()),
    )
)
