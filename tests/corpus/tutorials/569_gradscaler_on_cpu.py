# torch.amp.GradScaler("cpu") is enabled on the CPU: the loss is multiplied by the scale
# (65536 to start), the gradients divided back before the step, a step with an inf gradient
# is skipped and the scale halved; growth_interval clean steps double it.
import torch

w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
opt = torch.optim.SGD([w], lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=2)
print(scaler.is_enabled(), scaler.get_scale(), scaler.state_dict())
print(scaler.get_growth_factor(), scaler.get_backoff_factor(), scaler.get_growth_interval())

x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
for it in range(5):
    opt.zero_grad()
    pred = x @ w
    loss = (pred**2).mean()
    if it == 2:
        loss = loss * float("inf")
    scaled = scaler.scale(loss)
    print(it, scaled, scaled.grad_fn.name())
    scaled.backward()
    print("  scaled grad:", w.grad)
    if it == 3:
        scaler.unscale_(opt)
        print("  unscaled:", w.grad)
    r = scaler.step(opt)
    print("  after step:", w, r)
    scaler.update()
    print("  scale:", scaler.get_scale(), scaler.state_dict()["_growth_tracker"])

print(scaler.scale([loss, (loss, 2 * loss)]))
scaler.update(8.0)
print(scaler.get_scale())
scaler.update(torch.tensor(4.0))
print(scaler.get_scale())
sd = scaler.state_dict()
print(sd)
other = torch.amp.GradScaler("cpu")
other.load_state_dict(sd)
print(other.get_scale(), other.get_growth_interval())
scaler.set_growth_factor(4.0)
print(scaler.get_growth_factor())

xd = torch.tensor([1.5], dtype=torch.float64, requires_grad=True)
print(torch.amp.GradScaler("cpu").scale((xd * 3).sum()))
