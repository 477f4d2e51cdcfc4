# The gradient of a product is "the product of the other factors". When two factors are
# zero, every "other product" contains a zero, so the whole gradient vanishes.
import torch

factors = torch.tensor([-4.0, 0.0, 2.5, 0.0, -1.5], requires_grad=True)
total = factors.prod()
total.backward()
print("product:", total.item())
print("d product / d factor:", factors.grad)

# a huge upstream gradient does not turn the zeros into NaN
factors.grad = None
factors.prod().backward(torch.tensor(1e38) * 10)
print("with an infinite upstream gradient:", factors.grad)

# only one zero: the zero's own slot gets the product of the rest
one_zero = torch.tensor([[-4.0, 0.0], [2.5, -1.5]], dtype=torch.float64, requires_grad=True)
one_zero.prod().backward()
print(one_zero.grad)

# along a dimension, each row keeps its own products of the others
rows = torch.tensor([[0.0, -3.0, 0.0], [2.0, -1.0, 4.0]], requires_grad=True)
rows.prod(dim=1).sum().backward()
print(rows.grad)

# differentiable gradient: built from running products, so signed zeros show up
g, = torch.autograd.grad(factors.prod(), factors, create_graph=True)
print(g)
