import torch

w = torch.tensor([2.0, -1.0], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)

for step in range(6):
    opt.zero_grad()
    loss = (w[0] ** 2 + 10 * w[1] ** 2)
    loss.backward()
    opt.step()
    print(f"{step}: loss={loss.item():8.4f} w={w.detach().numpy()}")

state = opt.state[w]
print(state["momentum_buffer"])
print(opt.param_groups[0]["lr"], opt.param_groups[0]["momentum"])
