# A 0-dim integer tensor stands in for a Python int wherever Python wants an index:
# tallying predictions per class, picking names, slicing lists, repeating sequences.
import torch

names = ("red", "green", "blue", "gray")
torch.manual_seed(0)
logits = torch.randn(12, 4)
target = torch.tensor([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3])
guess = logits.argmax(dim=1)

hits = [0] * len(names)
seen = [0 for _ in names]
for k in range(target.numel()):
    label = target[k]
    seen[label] += 1
    if guess[k] == label:
        hits[label] += 1
for i, name in enumerate(names):
    print(f"{name:>5s}: {hits[i]}/{seen[i]}")

print([names[g] for g in guess[:5]])
print(names[guess[0]], "vs", names[target[0]])

n = torch.tensor(3)
row = list(range(10))
print(row[n:], row[:n], row[1:8:n], row[-n])
print(list(range(n)), list(range(1, 10, n)))
print([0] * n, n * ["x"], "ab" * n, (1, 2) * torch.tensor(2))
print(round(3.14159, torch.tensor(2)), chr(torch.tensor(72)), hex(torch.tensor(255)))
print(torch.arange(12.0).view(n, -1).shape, torch.ones(2).repeat(n))
print(row.pop(torch.tensor(0)), "-".join("abcdef".split("c", torch.tensor(1))))
del row[torch.tensor(1)]
row[torch.tensor(2)] = 99
print(row)
print(["no", "yes"][torch.tensor(True)], ["a", "b", "c"][torch.tensor([2])])
print(torch.nn.functional.one_hot(target[:4], num_classes=target.max() + 1))
print(logits[:3].argmax(dim=torch.tensor(1)), logits[:3].argmin(torch.tensor(0)))

for bad in (torch.tensor(1.0), torch.tensor([0, 1]), torch.tensor(2.5)):
    try:
        print(names[bad])
    except TypeError as e:
        print("TypeError:", e)
try:
    print(list(range(torch.tensor([1, 2]))))
except TypeError as e:
    print("TypeError:", e)
try:
    print([1] * torch.tensor(2.0))
except TypeError as e:
    print("TypeError:", e)
try:
    print(row[torch.tensor(0.5) :])
except TypeError as e:
    print("TypeError:", e)
