# Errors a tutorial catches and prints: an index past the end in index_select, a dim given
# twice to a reduction, and torch.linalg's LinAlgError for a singular or indefinite matrix.
import torch

x = torch.arange(12.0).reshape(3, 4)
for dim, index in [(0, [3]), (0, [-1]), (1, [4]), (1, [-2])]:
    try:
        print(x.index_select(dim, torch.tensor(index)))
    except (IndexError, RuntimeError) as err:
        print(f"index_select(dim={dim}, {index}): {type(err).__name__}: {err}")

for name, call in [
    ("sum", lambda: x.sum(dim=(0, 0))),
    ("mean", lambda: x.mean([1, -1])),
    ("amax", lambda: x.amax((0, -2))),
    ("var", lambda: torch.var(x, dim=(1, 1))),
    ("logsumexp", lambda: torch.logsumexp(x, dim=(0, 1, 0))),
]:
    try:
        print(call())
    except RuntimeError as err:
        print(f"{name}: {err}")

for A in [torch.zeros(2, 2), torch.tensor([[1.0, 2.0], [2.0, 4.0]])]:
    try:
        torch.linalg.inv(A)
    except torch.linalg.LinAlgError as err:
        print(type(err).__name__, "|", err)
try:
    torch.linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))
except RuntimeError as err:
    print(isinstance(err, torch.linalg.LinAlgError), err)
print(issubclass(torch.linalg.LinAlgError, RuntimeError), torch.linalg.LinAlgError)
