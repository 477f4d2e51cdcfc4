# A small MLP with batch normalisation trained on a toy regression, as the nn tutorials write
# it: the running statistics move during training, eval() switches to them.
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(
    nn.Linear(4, 8),
    nn.BatchNorm1d(8),
    nn.ReLU(),
    nn.Linear(8, 1),
)
print(model)

X = torch.randn(32, 4)
y = X.sum(dim=1, keepdim=True) ** 2 / 4

opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.MSELoss()
for epoch in range(30):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    if epoch % 5 == 0:
        print(f"epoch {epoch:2d}  loss {loss.item():.4f}")

bn = model[1]
print("batches seen:", bn.num_batches_tracked.item())
print("running mean:", bn.running_mean)
print("running var:", bn.running_var)
print(list(model.state_dict().keys()))

model.eval()
with torch.no_grad():
    test = torch.randn(5, 4)
    print(model(test).squeeze())
print("still", bn.num_batches_tracked.item(), "batches")
