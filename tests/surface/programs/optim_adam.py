# Adam on Rosenbrock's function, then AdamW with amsgrad on a tanh fit; lr changed mid-run.
import torch

p = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.Adam([p], lr=0.05)
for step in range(30):
    opt.zero_grad()
    loss = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
    loss.backward()
    opt.step()
    if step == 14:
        opt.param_groups[0]["lr"] = 0.02
    print(step, loss.item())
print(p)
torch.manual_seed(1)
x = torch.randn(4)
t = torch.tensor([0.5, -0.25, 1.0, 0.0])
v = torch.randn(4, requires_grad=True)
c = torch.zeros(1, requires_grad=True)
opt = torch.optim.AdamW([v, c], lr=0.02, weight_decay=0.1, amsgrad=True, betas=(0.8, 0.99))
for step in range(20):
    opt.zero_grad()
    loss = ((torch.tanh(x * v) + torch.sigmoid(c) - t) ** 2).sum()
    loss.backward()
    opt.step()
    print(step, loss.item())
print(v, c)
print(opt.state_dict()["param_groups"])
print(opt.state_dict()["state"][1])
