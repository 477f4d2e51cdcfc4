# Edge cases of the LU functions: empty matrices, wrong inputs caught as RuntimeError,
# forward mode, vmap and a second-order gradient through torch.linalg.lu.
import warnings

import torch

warnings.filterwarnings("ignore", category=UserWarning)


def attempt(label, fn):
    try:
        print(label, fn())
    except (RuntimeError, NotImplementedError) as e:
        print(label, type(e).__name__, str(e).splitlines()[0])


attempt("empty", lambda: torch.linalg.lu_factor(torch.zeros(0, 0)))
attempt("empty batch", lambda: torch.linalg.lu_factor(torch.zeros(2, 0, 3)).pivots.shape)
attempt("half", lambda: torch.linalg.lu_factor(torch.ones(2, 2).half()))
LU, piv = torch.linalg.lu_factor(torch.eye(2) * 2)
attempt("vector B", lambda: torch.linalg.lu_solve(LU, piv, torch.ones(2)))
attempt("dtype", lambda: torch.linalg.lu_solve(LU, piv, torch.ones(2, 1).double()))
attempt("broadcast", lambda: torch.linalg.lu_solve(LU, piv, torch.ones(3, 2, 1)).shape)
attempt("no pivoting", lambda: torch.linalg.lu_factor(torch.eye(2), pivot=False))
attempt("view", lambda: LU.view(-1))
attempt("1-D b", lambda: torch.triangular_solve(torch.ones(2), torch.eye(2)))
attempt("sizes", lambda: torch.triangular_solve(torch.ones(3, 1), torch.eye(2)))
attempt("unpack nothing", lambda: torch.lu_unpack(LU, piv, unpack_data=False, unpack_pivots=False))

A = torch.tensor([[4.0, 2.0], [8.0, 2.0]])
b = torch.tensor([[1.0], [2.0]])
out, tangent = torch.func.jvp(lambda a: torch.linalg.lu_factor(a).LU, (A,), (torch.ones(2, 2),))
print(out)
print(tangent)
print(torch.func.vmap(lambda a: torch.linalg.lu_factor(a).LU)(torch.stack([A, A + 1])))

a = A.clone().requires_grad_()
P, L, U = torch.linalg.lu(a)
print(P, L, U, sep="\n")
(g,) = torch.autograd.grad(U.sum() + L.pow(2).sum(), a, create_graph=True)
print(g)
print(torch.autograd.grad(g.sum(), a))
