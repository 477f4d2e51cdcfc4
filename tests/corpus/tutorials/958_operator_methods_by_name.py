# Operator methods called by name, the way some answers explain what `a + b` does: the
# tensor's own __add__ / __rsub__ / __rdiv__ give the same graph as the operators (the grad_fn
# names show it), a number's methods give way with NotImplemented where Python's do, and the
# protocol methods (__len__, __getitem__, __format__...) do what len(), [] and format() do.
import torch

x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
w = torch.tensor([[1.0, -1.0], [0.5, 2.0], [-2.0, 1.0]])

# what Python runs for `x * 3 + 1`, `2 - x`, `1 / x`, `x @ w`
h = torch.Tensor.__add__(x.__mul__(3), 1)
print(h)
print(x.__rsub__(2), x.__rtruediv__(1))
print(x.__rdiv__(1))  # PyTorch: reciprocal then multiply
print(x.__matmul__(w), x.__pow__(2).__neg__())

loss = x.__matmul__(w).__pow__(2).sum()
loss.backward()
print(x.grad)
print(torch.equal(x.grad, 2 * ((x.detach() @ w) @ w.T)))

# comparisons give masks, and give way for what is not a number or tensor
print(x.__gt__(0.75), x.__eq__(x), x.__le__(torch.ones(3)))
print(x.__add__("1"), x.__eq__(None))

# in place: __iadd__ returns the tensor itself
with torch.no_grad():
    before = x.clone()
    same = x.__iadd__(0.5)
print(same is x, x - before)

# protocol methods
print(x.__len__(), x.__getitem__(-1), x.__contains__(1.5))
print(loss.__format__(".4f"), loss.detach().__float__(), x.__getitem__(0).__bool__())
print(x.__repr__())
print(torch.tensor(2).__index__(), [10, 20, 30][torch.tensor(1)])

# Python numbers: int's methods take ints, float's take both
print(int.__add__(2, 3), (7).__floordiv__(2), (2).__add__(0.5), (2.0).__radd__(1))
print((3).__eq__(3.0), (3.0).__eq__(3), (10).__rsub__(1), (2).__pow__(10, 1000))
print((2.71828).__round__(3), (17).__divmod__(5), True.__add__(True))
