# torch.fill makes a new tensor shaped like its input, filled with one value.
# When the value is a 0-d tensor that requires grad, the gradient reaching it is the
# sum of the incoming gradient; the input itself gets zeros.
import torch

weights = torch.linspace(-1.0, 1.0, 6, dtype=torch.float64).reshape(2, 3).requires_grad_()
level = torch.tensor(0.75, dtype=torch.float64, requires_grad=True)

filled = torch.fill(weights, level)
print(filled)
print(filled.grad_fn.name(), len(filled.grad_fn.next_functions))

loss = (filled * torch.arange(6.0, dtype=torch.float64).reshape(2, 3)).sum()
loss.backward()
print("level.grad:", level.grad)
print("weights.grad:", weights.grad)

# a plain number gives FillBackward0, and the input still gets a zero gradient
plain = torch.fill(weights, 2)
print(plain.grad_fn.name())
plain.pow(2).sum().backward()
print(weights.grad)

# the result keeps the input's dtype
ints = torch.fill(torch.zeros(4, dtype=torch.int32), 3.9)
print(ints, ints.dtype)
print(torch.fill(torch.ones(2), torch.tensor(5)))

# the value must be a number or a 0-d tensor
try:
    torch.fill(weights, torch.ones(2))
except RuntimeError as e:
    print("RuntimeError:", e)

# in place: fill_ with a tensor value records FillBackward3
h = weights * 2
h.fill_(level * 3)
print(h.grad_fn.name())
h.sum().backward()
print(level.grad)
