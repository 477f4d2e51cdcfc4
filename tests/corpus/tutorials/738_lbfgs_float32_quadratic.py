# A float32 least-squares problem of 48 unknowns solved by L-BFGS: every iterate printed in
# full, so each of the algorithm's dot products and updates shows in the last digits.
import torch

torch.manual_seed(4)
M = torch.randn(60, 48)
target = torch.randn(60)
x = torch.zeros(48, requires_grad=True)
opt = torch.optim.LBFGS([x], max_iter=8, history_size=6)


def closure():
    opt.zero_grad()
    r = M @ x - target
    loss = 0.5 * (r * r).sum()
    loss.backward()
    return loss


for k in range(3):
    loss = opt.step(closure)
    print(k, loss.item())
    print(x[:6].tolist())
print(opt.state[x]["t"], opt.state[x]["H_diag"])
