# torch.func.jvp / jacfwd on a function that closes over trainable parameters: the forward-mode
# results keep their graph to the parameters, so a Jacobian penalty can be trained directly.
import torch
import torch.nn.functional as F
from torch.func import jvp, jacfwd

torch.manual_seed(3)
W = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
b = torch.tensor([0.8, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
x = torch.randn(3, dtype=torch.float64)
v = torch.tensor([1.0, 0.0, -1.0], dtype=torch.float64)


def layer(inp):
    return torch.tanh(W @ inp + b)


out, tangent = jvp(layer, (x,), (v,))
print(out)
print(tangent)
loss = tangent.pow(2).sum()
loss.backward()
print("W.grad", W.grad)
print("b.grad", b.grad)
W.grad = None
b.grad = None

J = jacfwd(layer)(x)
print(J)
jac_penalty = (J ** 2).sum()
jac_penalty.backward()
print("W.grad", W.grad)
print("b.grad", b.grad)

# scaling by the parameter: a quotient's tangent, and a Jacobian with signed zeros
J2 = jacfwd(lambda inp: inp / b)(x)
print(J2)
print(torch.signbit(J2))

# a function returning its input or a parameter unchanged
same, t_same = jvp(lambda inp: (inp * 2, b), (x,), (v,))
print(same[1] is b, same[1].grad_fn.name(), t_same[1])
