# A notebook-style training loop with progress bars (tqdm draws them on stderr; the script's
# own output is the losses it writes).
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from tqdm.auto import tqdm, trange

torch.manual_seed(1)
X = torch.randn(64, 4)
true_w = torch.tensor([[1.0], [-2.0], [0.5], [3.0]])
y = X @ true_w + 0.05 * torch.randn(64, 1)
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()

for epoch in trange(3, desc="epochs"):
    running = 0.0
    pbar = tqdm(loader, desc=f"epoch {epoch}", leave=False)
    for xb, yb in pbar:
        opt.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        running += loss.item()
        pbar.set_postfix(loss=f"{loss.item():.3f}")
    tqdm.write(f"epoch {epoch}: mean batch loss {running / len(loader):.4f} over {len(pbar)} batches")

with tqdm(total=4, desc="eval") as bar:
    with torch.no_grad():
        for xb, yb in loader:
            bar.update(1)
        print("final loss:", loss_fn(model(X), y).item())
