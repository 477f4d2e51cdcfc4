# Autograd checks that a saved tensor was not modified in place before it is used.
import torch

torch.manual_seed(4)
x = torch.randn(3, requires_grad=True)
h = x * 2
out = h.cos()
print(out.grad_fn._saved_self._version)
h.mul_(10)  # bumps h's version counter
print(h._version)
try:
    out.grad_fn._saved_self
except RuntimeError as err:
    msg = str(err)
    print(msg[: msg.index("Hint")].strip())

# the fix: clone before modifying
h = x * 2
out = h.clone().cos()
h.mul_(10)
print(out.grad_fn.next_functions[0][0].name())
out.sum().backward()
print(x.grad)
