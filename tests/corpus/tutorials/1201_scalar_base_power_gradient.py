# A geometric decay fitted through its exponent: y = c ** t with a number c. The gradient
# with respect to the exponent is y * log(c); printed with all of float32's digits.
import math
import torch

torch.manual_seed(11)
t = torch.randn(6, requires_grad=True)
weights = torch.randn(6)

y = 2.5 ** t
(y * weights).sum().backward()
print(y)
print(y.grad_fn.name())
print([f"{v:.9g}" for v in t.grad.tolist()])

# torch.pow with a number first, an integer base, e as the base, a base below one
for base in (2, math.e, 0.3, 10.0):
    s = t.detach().clone().requires_grad_()
    z = torch.pow(base, s)
    z.backward(weights)
    print(base, [f"{v:.9g}" for v in s.grad.tolist()])

# the same by hand: d/dt c**t = c**t * log(c)
by_hand = weights * (torch.pow(10.0, t.detach()) * math.log(10.0))
print(torch.equal(by_hand, s.grad))

# zero as the base: 0 ** t has gradient 0 where t >= 0 and -inf where t < 0
u = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
(0.0 ** u).sum().backward()
print(u.grad)
