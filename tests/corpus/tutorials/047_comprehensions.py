import torch

xs = [torch.tensor(float(i), requires_grad=True) for i in range(1, 4)]
total = sum(x ** 2 for x in xs)
print(total)
total.backward()
print([x.grad.item() for x in xs])

eye_rows = [[1 if j == i else 0 for j in range(3)] for i in range(3)]
print(eye_rows)
print(torch.tensor(eye_rows))

grads = {f"x{i}": x.grad for i, x in enumerate(xs)}
print(grads)
even = {i * i for i in range(6) if i % 2 == 0}
print(sorted(even))
print(sum(g.item() for g in grads.values()))
print(any(x.grad.item() > 5 for x in xs), all(x.requires_grad for x in xs))
print(max(x.item() for x in xs), min(x.item() for x in xs))
