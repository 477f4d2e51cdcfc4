# Looking inside torch.func transforms with print(): what a tensor is while grad, jvp,
# jacfwd and hessian trace the function, as debugging sessions in forum threads show it.
import torch
from torch.func import grad, jacfwd, jacrev, jvp, hessian, vjp

w = torch.tensor([1.0, -2.0])  # a weight from outside
wp = torch.tensor([1.0, -2.0], requires_grad=True)  # a parameter
b = torch.tensor(0.5)  # a constant from outside


def loss(x):
    print("x =", x)
    h = torch.tanh(x * w) + b
    print("h =", h)
    print("b =", b)
    return (h ** 2).sum()


x0 = torch.tensor([0.3, 0.7])
print("--- jvp")
out, tangent = jvp(loss, (x0,), (torch.ones(2),))
print(out, tangent)
print("--- jacfwd")
print(jacfwd(loss)(x0))
print("--- hessian")
print(hessian(loss)(x0))


def outer(x):
    inner = grad(loss)(x)
    print("inner grad =", inner)
    scale = torch.tensor(2.0)
    print("scale =", scale)
    return (inner * scale).sum()


print("--- grad of grad")
print(grad(outer)(x0))


def second(v):
    g = grad(lambda u: (u ** 3).sum())(v)
    print("g inside:", g)
    return g.sum()


print("--- jvp of grad")
print(jvp(second, (x0,), (torch.tensor([1.0, 0.0]),)))
print("--- jacrev of jacrev")
print(jacrev(jacrev(lambda u: print("u:", u) or (u ** 3).sum()))(x0))


def with_param(p):
    print("p =", p)
    return (p * x0).sum()


print("--- grad of grad, a parameter entering")
print(grad(lambda p: grad(with_param)(p).sum())(wp).shape)
print("--- vjp inside grad")


def through_vjp(x):
    y, pull = vjp(torch.sin, x)
    print("y =", y)
    (g,) = pull(torch.ones_like(y))
    print("g =", g)
    return g.sum()


print(grad(through_vjp)(x0))
