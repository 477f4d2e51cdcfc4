# Multiplication saves each factor only when the *other* one needs a gradient.
import torch

torch.manual_seed(2)
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
c = torch.tensor([0.5, 1.5, 2.5])  # a constant, no grad

both = a * b
print(both.grad_fn._saved_self is a, both.grad_fn._saved_other is b)

only_a = a * c
print(only_a.grad_fn._saved_self, only_a.grad_fn._saved_other)

# a Python number is stored as a 0-dim "wrapped number" tensor
print((a * 2).grad_fn._saved_other)
print((a * 2.5).grad_fn._saved_other)
print((3 * a).grad_fn._saved_other, (3 * a).grad_fn._saved_self is a)
print((a / 4).grad_fn._saved_other)

# division: the denominator is always needed, the numerator only for its gradient
q = c / b
print(q.grad_fn._saved_self, q.grad_fn._saved_other is b)

# powers keep the exponent as a plain Python number
for y in (a ** 2, a.pow(3), a.pow(0.5), a.square()):
    print(y.grad_fn.name(), y.grad_fn._saved_exponent, type(y.grad_fn._saved_exponent).__name__)

# tensor ** tensor saves base, exponent and result
p = a.abs() ** b
print(p.grad_fn.name(), p.grad_fn._saved_exponent is b)
print(p.grad_fn._saved_result)
