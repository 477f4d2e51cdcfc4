# Minibatches from Python's random module, as d2l's from-scratch chapters shuffle indices:
# random.seed fixes the order, torch.manual_seed the data.
import random

import torch

random.seed(0)
torch.manual_seed(0)

true_w = torch.tensor([2.0, -3.4])
true_b = 4.2
features = torch.normal(0, 1, (60, 2))
labels = (features @ true_w + true_b).reshape(-1, 1)


def batches(batch_size, features, labels):
    indices = list(range(len(features)))
    random.shuffle(indices)
    out = []
    for i in range(0, len(indices), batch_size):
        chosen = torch.tensor(indices[i : i + batch_size])
        out.append((features[chosen], labels[chosen]))
    return out


w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
for epoch in range(3):
    for X, y in batches(10, features, labels):
        loss = ((X @ w + b - y) ** 2 / 2).mean()
        loss.backward()
        with torch.no_grad():
            for p in (w, b):
                p -= 0.1 * p.grad
                p.grad.zero_()
    with torch.no_grad():
        full = ((features @ w + b - labels) ** 2 / 2).mean()
    print(f"epoch {epoch + 1}, loss {full.item():f}")

print("w:", w.detach().flatten(), "b:", b.item())
print(random.random(), random.randint(1, 6), random.choice("abc"))
print(random.sample(range(20), 4), round(random.gauss(0, 1), 6))
