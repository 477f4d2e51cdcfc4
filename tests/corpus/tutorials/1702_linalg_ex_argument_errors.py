# Checking a small solver wrapper's error handling: the *_ex functions return LAPACK's info
# instead of raising for a singular matrix, but wrong arguments are still errors, worded by the
# plain function (linalg.solve, linalg.inv, linalg.cholesky); only check_errors=True turns a
# singular matrix into an error that names the _ex function.
import torch

A = torch.tensor([[4.0, 1.0], [1.0, 3.0]], dtype=torch.float64)
b = torch.tensor([1.0, 2.0], dtype=torch.float64)

x, info = torch.linalg.solve_ex(A=A, B=b)
print(x, info)
inv, info = torch.linalg.inv_ex(A=A)
print(inv, info)
L, info = torch.linalg.cholesky_ex(input=A, upper=True, check_errors=True)
print(L, info)

singular = torch.zeros(2, 2, dtype=torch.float64)
print(torch.linalg.inv_ex(singular).info)

attempts = {
    "float32 A, float64 b": lambda: torch.linalg.solve(A.float(), b),
    "non-square float32 A": lambda: torch.linalg.solve(torch.ones(2, 3), b),
    "integer A": lambda: torch.linalg.solve(torch.ones(2, 2, dtype=torch.int64), b),
    "float64 A, integer b": lambda: torch.linalg.solve(A, torch.ones(2, dtype=torch.int64)),
    "vector A": lambda: torch.linalg.solve(b, b.float()),
    "solve_ex shapes": lambda: torch.linalg.solve_ex(A, torch.ones(3, 2, dtype=torch.float64)),
    "inv_ex non-square": lambda: torch.linalg.inv_ex(torch.ones(2, 3)),
    "cholesky_ex vector": lambda: torch.linalg.cholesky_ex(b),
    "solve_ex singular": lambda: torch.linalg.solve_ex(singular, b, check_errors=True),
    "inv_ex singular": lambda: torch.linalg.inv_ex(singular, check_errors=True),
    "cholesky_ex not PD": lambda: torch.linalg.cholesky_ex(-A, check_errors=True),
}
for what, call in attempts.items():
    try:
        call()
        print(what, "-> ok")
    except RuntimeError as e:
        print(what, "->", e)

for call in [
    lambda: torch.linalg.solve_ex(A),
    lambda: torch.linalg.solve_ex(A, b, True),
    lambda: torch.linalg.inv_ex(A, check_errors=1.5),
]:
    try:
        call()
    except TypeError as e:
        print("TypeError:", e)
