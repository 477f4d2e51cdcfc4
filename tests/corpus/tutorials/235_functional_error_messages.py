# What the functional APIs say when they are misused, caught the way tutorials show them.
import torch
from torch.autograd.functional import jacobian, vjp, hessian
from torch.func import grad, vmap, jacrev

x = torch.tensor([1.0, 2.0, 3.0])


def attempt(name, fn):
    try:
        fn()
        print(name, "ok")
    except (RuntimeError, ValueError, TypeError) as e:
        print(f"{name}: {type(e).__name__}: {e}")


attempt("grad of a vector", lambda: grad(lambda t: t * 2)(x))
attempt("vmap sizes", lambda: vmap(torch.mul)(x, torch.ones(2)))
attempt("vmap of a 0-d", lambda: vmap(torch.sin)(torch.tensor(1.0)))
attempt("argnums", lambda: grad(lambda a, b: (a * b).sum(), argnums=2)(x, x))
attempt("argnums list", lambda: grad(lambda a: a.sum(), argnums=[0])(x))
attempt("strict", lambda: jacobian(lambda t: torch.ones(3), x, strict=True))
attempt("inputs list", lambda: jacobian(lambda t: t, [x]))
attempt("v missing", lambda: vjp(lambda t: t * 2, x))
attempt("hessian vector", lambda: hessian(lambda t: t ** 2, x))
attempt("has_aux", lambda: grad(lambda t: t.sum(), has_aux=True)(x))
attempt("chunk_size", lambda: jacrev(torch.sin, chunk_size=0)(x))
attempt("float arg", lambda: grad(lambda t, s: t.sum() * s, argnums=1)(x, 2.0))
attempt("vmap float", lambda: vmap(lambda t, s: t * s, in_dims=(0, 0))(x, 2.0))
attempt("fine", lambda: grad(lambda t: (t ** 2).sum())(x))
