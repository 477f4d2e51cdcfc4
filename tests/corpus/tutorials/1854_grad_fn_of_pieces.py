# The pieces of one tensor (split, chunk, unbind) share one backward node in PyTorch:
# calling it by hand takes one gradient per piece and returns the whole tensor's gradient.
import torch

x = torch.linspace(-1.0, 1.0, 6, dtype=torch.float64, requires_grad=True)
head, tail = x.split([2, 4])
node = tail.grad_fn
print(node.name())
print(node(torch.ones(2, dtype=torch.float64), torch.full((4,), 3.0, dtype=torch.float64)))
print(node(None, torch.arange(4.0, dtype=torch.float64)))
print(node(None, None))
try:
    node(torch.ones(2, dtype=torch.float64))
except TypeError as e:
    print("TypeError:", e)

m = (x.reshape(2, 3) * 10).requires_grad_()
first, second = m.unbind(0)
print(first.grad_fn.name(), first.grad_fn(torch.ones(3, dtype=torch.float64),
                                          torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)))
parts = x.chunk(3)
print(parts[1].grad_fn(*(torch.full((2,), float(k), dtype=torch.float64) for k in range(3))))

# the same numbers as autograd.grad with those gradients
grads = torch.autograd.grad(parts, x, grad_outputs=[torch.full((2,), float(k), dtype=torch.float64)
                                                    for k in range(3)])
print(grads[0])
