# Picking scores with gather and friends, and the errors a wrong index gives (caught and
# printed, as a notebook cell exploring them does).
import torch

scores = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]], requires_grad=True)
labels = torch.tensor([[1], [0]])
picked = scores.gather(1, labels)
picked.sum().backward()
print(picked, scores.grad)

attempts = {
    "negative index": lambda: scores.gather(1, torch.tensor([[-1], [0]])),
    "past the end": lambda: scores.gather(1, torch.tensor([[3], [0]])),
    "index too tall": lambda: scores.gather(1, torch.zeros(3, 1, dtype=torch.long)),
    "index too wide": lambda: scores.gather(0, torch.tensor([[0, 1, 1, 0]])),
    "float index": lambda: scores.gather(1, torch.tensor([[1.0], [0.0]])),
    "index_add 1-d": lambda: torch.zeros(3).index_add(0, torch.tensor([3]), torch.ones(1)),
    "index_add 2-d": lambda: torch.zeros(2, 3).index_add(1, torch.tensor([3]), torch.ones(2, 1)),
}
for name, f in attempts.items():
    try:
        print(name, f())
    except (RuntimeError, IndexError) as e:
        print(name, "->", type(e).__name__, e)

# take_along_dim counts negative indices from the end along its dim
x = torch.arange(6.0).reshape(2, 3)
print(torch.take_along_dim(x, torch.tensor([[-1], [-3]]), dim=1))
print(torch.take_along_dim(x, x.argsort(dim=1, descending=True), dim=1))
print(torch.gather(torch.tensor(5.0), 0, torch.tensor(0)))
print(scores.gather(1, torch.tensor([[2], [1]]), sparse_grad=False))

# buffers made like an existing tensor, with a size computed wrongly
for sizes in [(-2, 6), (3, -1)]:
    try:
        scores.new_zeros(sizes)
    except RuntimeError as e:
        print("new_zeros", sizes, "->", e)
print(scores.new_zeros(2, 4).shape, scores.new_ones((1, 3)).dtype)
