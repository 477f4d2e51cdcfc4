# A model converted to float64 after its optimizer was made: the optimizer still trains it,
# because .double() / .to(dtype) change each parameter in place (the same Parameter object).
import torch
import torch.nn as nn

torch.manual_seed(3)
model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Tanh(), nn.Linear(4, 1))
first_weight = model[0].weight
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

x = torch.randn(8, 3)
y = torch.randn(8, 1)
loss = nn.functional.mse_loss(model(x), y)
loss.backward()
print("grad before the cast:", model[3].weight.grad.dtype)

model.double()
print("same object:", first_weight is model[0].weight, first_weight.dtype)
print("grad after the cast:", model[3].weight.grad.dtype)
print("buffer:", model[1].running_mean.dtype)

for step in range(3):
    opt.zero_grad()
    loss = nn.functional.mse_loss(model(x.double()), y.double())
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))

print(first_weight)
print(model[3].bias)

# a name held before .float() and .to(torch.float32): still the module's parameter
w = model[3].weight
model.float()
print(w is model[3].weight, w.dtype)
model.to(torch.float32)
print(w is model[3].weight, w.dtype)
with torch.no_grad():
    w.fill_(0.5)
print(model[3].weight)
