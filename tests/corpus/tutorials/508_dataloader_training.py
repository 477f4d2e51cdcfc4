# Mini-batch training the way most tutorials write it: a Dataset, a DataLoader that
# shuffles, a small model, SGD, and a validation split.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, TensorDataset, random_split

torch.manual_seed(0)

# Synthetic regression data: y = 3x - 1 plus a little noise.
X = torch.linspace(-1, 1, 40).unsqueeze(1)
Y = 3 * X - 1 + 0.1 * torch.randn(40, 1)
full = TensorDataset(X, Y)
train_set, val_set = random_split(full, [32, 8])
print("sizes:", len(train_set), len(val_set))
print("first training sample:", train_set[0])

train_loader = DataLoader(train_set, batch_size=8, shuffle=True)
val_loader = DataLoader(val_set, batch_size=8)
print("batches per epoch:", len(train_loader))

model = nn.Linear(1, 1)
loss_fn = nn.MSELoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(5):
    model.train()
    total = 0.0
    for xb, yb in train_loader:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    model.eval()
    with torch.no_grad():
        val = sum(loss_fn(model(xb), yb).item() for xb, yb in val_loader)
    print(f"epoch {epoch}: train {total / len(train_set):.4f}  val {val:.4f}")

print("weight", model.weight.data, "bias", model.bias.data)


# A Dataset of our own: samples as dicts, collated key by key.
class Pairs(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return {"x": torch.tensor([float(i), float(i) + 0.5]), "label": i % 2}


batch = next(iter(DataLoader(Pairs(6), batch_size=4, shuffle=True)))
print(batch["x"])
print(batch["label"])
g = torch.Generator().manual_seed(3)
for xb, yb in DataLoader(full, batch_size=16, shuffle=True, generator=g, drop_last=True):
    print(xb.shape, yb.mean())
print("after the loaders:", torch.rand(3))
