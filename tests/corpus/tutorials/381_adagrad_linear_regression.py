# torch.optim.Adagrad on a linear regression: its defaults, the accumulated squared gradients
# in its state, lr_decay, and the losses every few epochs.
import torch
from torch import nn

torch.manual_seed(5)
X = torch.randn(32, 3)
y = X @ torch.tensor([[1.5], [-0.5], [2.0]]) + 0.3

model = nn.Linear(3, 1)
optimizer = torch.optim.Adagrad(model.parameters(), lr=0.5)
print(optimizer)
criterion = nn.MSELoss()
for epoch in range(40):
    optimizer.zero_grad()
    loss = criterion(model(X), y)
    loss.backward()
    optimizer.step()
    if epoch % 8 == 7:
        print(f"epoch {epoch + 1:3d}  loss {loss.item():.6f}")
state = optimizer.state[model.bias]
print(sorted(state.keys()), state["step"])
print(state["sum"])

w = torch.tensor([1.0, -1.0], requires_grad=True)
opt = torch.optim.Adagrad([w], lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.5)
for _ in range(5):
    opt.zero_grad()
    (w**2).sum().backward()
    opt.step()
print(w)
