# Nested function transforms with print() at each depth: what each level wraps.
import torch
from torch.func import grad, grad_and_value, jacfwd, jacrev, jvp

x0 = torch.tensor([0.2, -0.4, 0.9])


def outer_fn(x):
    made_outside = x.cos()  # made at the outer level

    def inner_fn(y):
        print("made outside, seen inside:", made_outside)
        print("inner input:", y)
        return (y * made_outside).sum()

    g = grad(inner_fn)(x)
    print("inner result:", g)
    return g.sum()


print(grad(outer_fn)(x0))

print("--- jacfwd of jacfwd")
print(jacfwd(jacfwd(lambda u: print("u =", u) or u.exp()))(x0[:2]).shape)

print("--- jvp of jvp")


def f(u):
    print("f sees", u)
    return u.sin()


def df(u):
    return jvp(f, (u,), (torch.ones_like(u),))[1]


print(jvp(df, (x0,), (torch.ones(3),)))

print("--- grad_and_value with has_aux inside jacrev")


def with_aux(u):
    loss = (u ** 2).sum()
    print("loss inside:", loss)
    return loss, u.detach()


def rows(u):
    g, (v, aux) = grad_and_value(with_aux, has_aux=True)(u)
    print("aux:", aux)
    print("v:", v)
    return g


print(jacrev(rows)(x0))
print("--- a comparison and an index")


def pick(u):
    mask = u > 0
    print("mask:", mask)
    print("first:", u[0])
    print("shape:", u.shape, "dtype:", u.dtype)
    return (u * mask).sum()


print(grad(lambda v: grad(lambda u: pick(u) ** 2)(v).sum())(torch.tensor([1.5, -0.5])))
