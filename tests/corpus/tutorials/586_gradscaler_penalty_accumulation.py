# The AMP examples' harder cases with a scaler that is enabled on the CPU: a gradient penalty
# (autograd.grad of the scaled loss, unscaled by hand), gradient accumulation over
# micro-batches, and two models with two optimizers sharing one scaler.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=256.0)
x = torch.randn(8, 3)
y = torch.randn(8, 1)

# gradient penalty
for step in range(2):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    scaled_grads = torch.autograd.grad(
        outputs=scaler.scale(loss), inputs=model.parameters(), create_graph=True
    )
    inv_scale = 1.0 / scaler.get_scale()
    grads = [g * inv_scale for g in scaled_grads]
    penalty = sum(g.pow(2).sum() for g in grads).sqrt()
    total = loss + penalty
    scaler.scale(total).backward()
    scaler.step(opt)
    scaler.update()
    print(step, f"{loss.item():.6f}", f"{penalty.item():.6f}", scaler.get_scale())
print(model.weight, model.bias)

# gradient accumulation: four micro-batches, one step
opt.zero_grad()
for chunk_x, chunk_y in zip(x.chunk(4), y.chunk(4)):
    loss = ((model(chunk_x) - chunk_y) ** 2).mean() / 4
    scaler.scale(loss).backward()
print(model.weight.grad)
scaler.unscale_(opt)
print(model.weight.grad)
torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
scaler.step(opt)
scaler.update()
print(model.weight, scaler.state_dict())

# two models, two optimizers, two losses
a = nn.Linear(2, 1)
b = nn.Linear(2, 1)
opt_a = torch.optim.SGD(a.parameters(), lr=0.05)
opt_b = torch.optim.Adam(b.parameters(), lr=0.05)
s = torch.amp.GradScaler("cpu")
inp = torch.randn(5, 2)
for it in range(3):
    opt_a.zero_grad()
    opt_b.zero_grad()
    out_a = a(inp)
    out_b = b(inp)
    loss_a = (out_a - out_b).pow(2).mean()
    loss_b = (out_b - 1.0).abs().mean()
    s.scale(loss_a).backward(retain_graph=True)
    s.scale(loss_b).backward()
    s.unscale_(opt_a)
    s.step(opt_a)
    s.step(opt_b)
    s.update()
    print(it, round(loss_a.item(), 5), round(loss_b.item(), 5), s.get_scale())
print(a.weight.data, b.weight.data)
