# Adafactor keeps, for a weight matrix, only a row mean and a column mean of the squared
# gradient instead of a full second-moment tensor, and scales each step by the weight's
# own RMS. A small regression trained with it, the factored state shown along the way.
import torch
import torch.nn as nn

torch.manual_seed(7)
model = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1)).to(torch.float64)
optimizer = torch.optim.Adafactor(model.parameters(), lr=0.03, weight_decay=0.01)

x = torch.randn(32, 3, dtype=torch.float64)
y = (x ** 2).sum(dim=1, keepdim=True).sqrt()

for step in range(1, 7):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss = {loss.item():.8f}")

first = model[0].weight
state = optimizer.state[first]
print(sorted(state.keys()))
print("row_var shape", tuple(state["row_var"].shape), "col_var shape", tuple(state["col_var"].shape))
print(state["step"])
print(optimizer.state[model[0].bias]["variance"])
print(model[2].weight)

# float32 parameters of other ranks: a vector, and a stack of matrices factored over the
# last two dimensions; maximize climbs instead of descending
torch.manual_seed(1)
v = torch.randn(5, requires_grad=True)
cube = torch.randn(2, 3, 4, requires_grad=True)
opt = torch.optim.Adafactor([v, cube], lr=0.1, maximize=True)
for _ in range(3):
    opt.zero_grad()
    (v.sin().sum() + (cube * cube).cos().sum()).backward()
    opt.step()
print(v)
print(cube[1])
print(opt.state[cube]["col_var"].shape)

for bad in (dict(lr=-0.1), dict(beta2_decay=0.2), dict(d=0.5)):
    try:
        torch.optim.Adafactor([v], **bad)
    except ValueError as e:
        print("ValueError:", e)
