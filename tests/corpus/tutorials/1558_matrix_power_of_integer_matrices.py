# Powers of integer matrices: Fibonacci numbers from [[1, 1], [1, 0]], path counts from an
# adjacency matrix. torch.linalg.matrix_power multiplies in the matrix's own dtype (uint8
# wraps); only a negative power needs a float matrix, to invert it.
import torch

fib = torch.tensor([[1, 1], [1, 0]])
for n in [0, 1, 5, 10]:
    print(n, torch.linalg.matrix_power(fib, n)[0, 1].item())
print(torch.matrix_power(fib, 6), fib.matrix_power(3).dtype)

adjacency = torch.tensor([[0, 1, 1], [0, 0, 1], [1, 0, 0]], dtype=torch.int32)
print(torch.linalg.matrix_power(adjacency, 3))  # walks of length 3
stacked = torch.stack([adjacency, adjacency.T])
print(torch.linalg.matrix_power(stacked, 2).sum((1, 2)))

small = torch.tensor([[20, 1], [0, 1]], dtype=torch.uint8)
print(torch.linalg.matrix_power(small, 2))  # 400 wraps to 144

links = torch.tensor([[True, False], [True, True]])
print(torch.linalg.matrix_power(links, 1), torch.linalg.matrix_power(links, 0))
for f in [
    lambda: torch.linalg.matrix_power(links, 2),
    lambda: torch.linalg.matrix_power(fib, -1),
    lambda: torch.linalg.matrix_power(torch.ones(2, 3, dtype=torch.int64), 2),
]:
    try:
        print(f())
    except (RuntimeError, NotImplementedError) as e:
        print(type(e).__name__, e)
print(torch.linalg.matrix_power(fib.double(), -1))
