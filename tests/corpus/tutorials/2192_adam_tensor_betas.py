# Adam with its betas given as tensors (as schedulers that tune them in place expect):
# the param groups keep the tensors, and the step does its arithmetic on them.
import torch

torch.manual_seed(0)
scale = torch.nn.Parameter(torch.randn(6))
shift = torch.nn.Parameter(torch.zeros(6, dtype=torch.float64))
target = torch.linspace(-1, 1, 6)

betas = (torch.tensor(0.9), torch.tensor(0.999))
opt = torch.optim.Adam([scale, shift], lr=0.05, betas=betas, amsgrad=True)
print(opt)
print(opt.param_groups[0]["betas"] is betas, opt.param_groups[0]["betas"][0] is betas[0])

for step in range(8):
    opt.zero_grad()
    loss = ((scale.tanh() * 2 + shift - target) ** 2).sum()
    loss.backward()
    opt.step()
    if step % 3 == 0:
        print(step, round(loss.item(), 6))

print(scale)
print(shift)
print(opt.state[scale]["exp_avg_sq"])

# the betas tensors can be changed in place between steps
betas[0].fill_(0.8)
opt2 = torch.optim.AdamW([scale], lr=0.01, betas=(torch.tensor(0.95), torch.tensor(0.98)))
for _ in range(4):
    opt2.zero_grad()
    (scale.sin() * scale).sum().backward()
    opt2.step()
print(scale)
print(opt2.state_dict()["param_groups"][0]["betas"])

w = torch.nn.Parameter(torch.tensor([1.5, -0.3, 0.7]))
opt3 = torch.optim.Adamax([w], lr=0.1, betas=(torch.tensor(0.9), torch.tensor(0.999)))
for _ in range(6):
    opt3.zero_grad()
    (w.sin() * w).sum().backward()
    opt3.step()
print(w.tolist())

try:
    torch.optim.Adam([scale], betas=(torch.tensor(0.9), 0.999))
except ValueError as e:
    print("ValueError:", e)
