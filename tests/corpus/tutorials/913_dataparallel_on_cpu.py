# Training scripts wrap the model in nn.DataParallel "if there are several GPUs" and often
# unconditionally. On a machine without GPUs PyTorch keeps the model as `.module`, passes
# every call straight through and trains exactly the same parameters; the only visible
# change is the `module.` prefix of the state_dict keys, which checkpoint loaders strip.
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyMLP(nn.Module):
    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.hidden = nn.Linear(d_in, d_hidden)
        self.out = nn.Linear(d_hidden, 1)

    def forward(self, x, temperature=1.0):
        return self.out(torch.tanh(self.hidden(x))) / temperature


torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = TinyMLP(3, 4).to(device)
model = nn.DataParallel(net)
print(model)
print("wraps the same module:", model.module is net, "device_ids:", model.device_ids)
print(isinstance(model, nn.DataParallel), isinstance(model.module, TinyMLP))
print(list(model.state_dict().keys()))

x = torch.randn(8, 3)
y = x.sum(dim=1, keepdim=True).sin()
opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9)
for step in range(5):
    opt.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 6))
print(net.out.bias, net.out.bias.grad)
print(model(x[:2], temperature=2.0))

# saving from the wrapper, loading into a bare model: strip the prefix
checkpoint = model.state_dict()
plain = TinyMLP(3, 4)
try:
    plain.load_state_dict(checkpoint)
except RuntimeError as e:
    print("RuntimeError:", str(e).splitlines()[0])
fixed = {k[len("module."):] if k.startswith("module.") else k: v for k, v in checkpoint.items()}
print(plain.load_state_dict(fixed))
print(torch.equal(plain(x), model(x)))

# or unwrap before saving
to_save = model.module if isinstance(model, nn.DataParallel) else model
print(list(to_save.state_dict())[:2])
model.eval()
print(model.training, net.training, len(list(model.modules())))
