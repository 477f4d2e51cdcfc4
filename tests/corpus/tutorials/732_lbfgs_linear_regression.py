# Least squares with nn.Linear trained by L-BFGS: a full-batch problem, where one step of
# L-BFGS does the work of many gradient-descent epochs.
import torch
import torch.nn as nn

torch.manual_seed(3)
X = torch.randn(64, 3)
true_w = torch.tensor([[1.5, -2.0, 0.7]])
Y = X @ true_w.T + 0.3 + 0.1 * torch.randn(64, 1)

model = nn.Linear(3, 1)
criterion = nn.MSELoss()
optimizer = torch.optim.LBFGS(model.parameters(), lr=0.8, history_size=5)

for epoch in range(4):

    def closure():
        optimizer.zero_grad()
        loss = criterion(model(X), Y)
        loss.backward()
        return loss

    loss = optimizer.step(closure)
    print(f"epoch {epoch}: loss before step {loss.item():.5f}")

print("weight", [round(w, 3) for w in model.weight.view(-1).tolist()])
print("bias", round(model.bias.item(), 3))
print("final loss", round(criterion(model(X), Y).item(), 5))
