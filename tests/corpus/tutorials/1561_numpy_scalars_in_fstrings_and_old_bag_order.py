# Logging a loss through NumPy: a 0-d array in an f-string shows the float's full repr, as
# NumPy formats it through its element; and embedding_bag called in its old argument order.
import numpy as np
import torch
import torch.nn.functional as F

torch.manual_seed(1)
w = torch.randn(4, requires_grad=True)
loss = (w**2).sum() * 0.1
arr = loss.detach().numpy()
print(f"loss {arr}", "{} | {:.3f} | {!r}".format(arr, arr, arr))
print(f"{np.array(3)} {np.array(False)} {np.array([0.5, 1.25])} {torch.tensor(1e-7).numpy()}")
print("%s" % arr, str(arr), format(arr), f"{arr=}")

table = torch.rand(6, 2)
ids = torch.tensor([0, 2, 5, 1, 1])
print(F.embedding_bag(table, ids, torch.tensor([0, 3])))
print(F.embedding_bag(ids, table, torch.tensor([0, 3]), mode="max"))
