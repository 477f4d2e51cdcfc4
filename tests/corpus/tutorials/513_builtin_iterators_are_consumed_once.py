# zip, enumerate, map, filter and reversed give iterators: consumed once, no len(), no [i]
import torch

torch.manual_seed(3)
w = torch.randn(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
loss = ((w * torch.tensor([1.0, 2.0, 3.0])).sum() + b).pow(2)
loss.backward()

pairs = zip(["w", "b"], [w, b])
print(type(pairs).__name__)
for name, p in pairs:
    print(name, p.grad)
print("second pass:", list(pairs))

steps = enumerate([0.1, 0.01], start=1)
print(next(steps))
print(list(steps), list(steps))

norms = map(lambda p: p.grad.norm().item(), [w, b])
print(type(norms).__name__, [round(n, 4) for n in norms])

big = filter(lambda g: g.abs().max() > 1.0, [w.grad, b.grad])
print(sum(1 for _ in big))

for what in (zip([1], [2]), map(abs, [-1]), enumerate("ab"), reversed([1, 2, 3])):
    try:
        what[0]
    except TypeError as e:
        print("TypeError:", e)
    try:
        len(what)
    except TypeError as e:
        print("TypeError:", e)

print(type(reversed(range(3))).__name__, type(reversed((1, 2))).__name__)
print(list(reversed({"a": 1, "b": 2})))
print(reversed(torch.arange(4.0)))
print(reversed(torch.tensor(5.0)))

# a list changed while enumerate walks it is seen changed, as in Python
layers = [torch.nn.Linear(2, 2)]
for i, layer in enumerate(layers):
    if i < 2:
        layers.append(torch.nn.Linear(2, 2))
print(len(layers))

# unpacking and star-arguments take the iterator's items
xs, ys = zip(*[(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)])
print(torch.tensor(xs) @ torch.tensor(ys))
print(*map(int, torch.tensor([1.7, -2.2])))
grads = dict(zip(("w", "b"), (w.grad, b.grad)))
print(sorted(grads), grads["b"])
