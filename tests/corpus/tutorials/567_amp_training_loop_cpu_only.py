# The AMP recipe's training loop, run on a machine without a GPU: the scaler and the
# autocast block are disabled (PyTorch warns), and the loop trains in float32.
import torch
import torch.nn as nn

torch.manual_seed(0)
device = "cuda" if torch.cuda.is_available() else "cpu"
print("device:", device)

model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()
scaler = torch.cuda.amp.GradScaler()
print("scaler enabled:", scaler.is_enabled(), "scale:", scaler.get_scale())

x = torch.randn(16, 4)
y = x.sum(dim=1, keepdim=True) * 0.5

for epoch in range(5):
    opt.zero_grad()
    with torch.autocast(device_type="cuda", dtype=torch.float16):
        out = model(x)
        loss = loss_fn(out, y)
    print(epoch, out.dtype, f"{loss.item():.6f}")
    scaled = scaler.scale(loss)
    print("  scaled is loss:", scaled is loss, scaled.grad_fn.name())
    scaled.backward()
    scaler.unscale_(opt)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    print("  grad norm:", round(norm.item(), 5))
    result = scaler.step(opt)
    print("  step returned:", result)
    scaler.update()

print("state:", scaler.state_dict(), scaler.get_scale())
print(model[0].weight.grad[0])

# the newer spelling, and a scaler switched off by the program itself
scaler2 = torch.amp.GradScaler("cuda")
scaler3 = torch.amp.GradScaler(enabled=False)
print(scaler2.is_enabled(), scaler3.is_enabled(), scaler3.state_dict())
use_amp = torch.cuda.is_available()
scaler4 = torch.cuda.amp.GradScaler(enabled=use_amp)
with torch.autocast(device_type=device, dtype=torch.float16, enabled=use_amp):
    loss = loss_fn(model(x), y)
scaler4.scale(loss).backward()
scaler4.step(opt)
scaler4.update()
print(f"{loss.item():.6f}", scaler4.get_scale(), torch.is_autocast_enabled())
print(torch.amp.GradScaler, torch.autocast)
