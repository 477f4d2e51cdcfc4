# The 1cycle learning-rate policy and a polynomial decay, stepping a tiny least-squares fit.
import torch

torch.manual_seed(0)
A = torch.randn(6, 3, dtype=torch.float64)
b = torch.randn(6, dtype=torch.float64)
w = torch.zeros(3, dtype=torch.float64, requires_grad=True)

opt = torch.optim.SGD([w], lr=0.05, momentum=0.9)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.2, total_steps=8)
print("start:", opt.param_groups[0]["lr"], opt.param_groups[0]["momentum"])
for step in range(8):
    opt.zero_grad()
    loss = ((A @ w - b) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step() if step < 7 else None
    group = opt.param_groups[0]
    print(f"{step}: loss={loss.item():.6f} lr={group['lr']:.6f} momentum={group['momentum']:.4f}")
print(sorted(k for k in opt.param_groups[0] if k != "params"))
print(w)

# Adam's beta1 cycles instead of a momentum; linear annealing, three phases.
v = torch.ones(2, requires_grad=True)
adam = torch.optim.Adam([v], lr=0.01)
cyc = torch.optim.lr_scheduler.OneCycleLR(
    adam, max_lr=[0.1], epochs=2, steps_per_epoch=3, anneal_strategy="linear", three_phase=True
)
for i in range(6):
    adam.zero_grad()
    (v ** 2).sum().backward()
    adam.step()
    if i < 5:
        cyc.step()
    print(i, cyc.get_last_lr(), adam.param_groups[0]["betas"])
print(v)

poly = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
decay = torch.optim.lr_scheduler.PolynomialLR(poly, total_iters=4, power=2.0)
for i in range(6):
    poly.step()
    decay.step()
    print("poly", i, decay.get_last_lr())
