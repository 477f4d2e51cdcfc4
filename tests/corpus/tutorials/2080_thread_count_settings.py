# A training script that sizes PyTorch's thread pools before it starts: the counts it sets
# are the counts it reads back, and PyTorch's checks of a bad count are caught and shown.
import os

import torch

cores = os.cpu_count()
print("cores known:", isinstance(cores, int) and cores >= 1)
torch.set_num_threads(max(1, cores // 2))
print("half the cores:", torch.get_num_threads() == max(1, cores // 2))

torch.set_num_threads(3)
print("intra-op threads:", torch.get_num_threads())
torch.set_num_interop_threads(2)
print("inter-op threads:", torch.get_num_interop_threads())

for bad in (0, -4, 2.5, True, 2**31, 2**70):
    try:
        torch.set_num_threads(bad)
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, "|", e)
print("still:", torch.get_num_threads())

try:
    torch.set_num_interop_threads(4)
except RuntimeError as e:
    print(e)
print("inter-op kept:", torch.get_num_interop_threads())

# the threads change no number: a small regression step prints the same loss
w = torch.tensor([0.5, -0.25], dtype=torch.float64, requires_grad=True)
x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=torch.float64)
y = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
loss = ((x @ w - y) ** 2).mean()
loss.backward()
print(f"loss {loss.item():.6f} grad {w.grad.tolist()}")
