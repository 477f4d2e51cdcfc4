import torch

# Collecting per-step values in a list, then turning the list into one tensor.
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
losses, grads = [], []
for step in range(3):
    loss = (w * (step + 1)).pow(2).sum()
    loss.backward()
    losses.append(loss.detach())
    grads.append(w.grad.clone())
    w.grad = None

# one-element tensors: torch.tensor reads their values
print(torch.tensor(losses))

# three-element tensors: torch.tensor refuses them, with Python's ValueError
try:
    torch.tensor(grads)
except ValueError as err:
    print("ValueError:", err)
print(torch.stack(grads))

# a scheduler watching a metric wants one number, not a vector of per-sample losses
opt = torch.optim.SGD([w], lr=0.1)
sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0)
per_sample = torch.tensor([0.5, 0.7, 0.2])
try:
    sched.step(per_sample)
except ValueError as err:
    print("ValueError:", err)
sched.step(per_sample.mean())
print(opt.param_groups[0]["lr"])
