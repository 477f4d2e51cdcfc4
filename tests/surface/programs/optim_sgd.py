# SGD with momentum, weight decay and Nesterov on an elementwise fit (PyTorch's float32).
import torch

torch.manual_seed(0)
x = torch.randn(4)
y = torch.randn(4)
w = torch.zeros(4, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.1, momentum=0.9, weight_decay=0.01, nesterov=True)
for step in range(25):
    opt.zero_grad()
    loss = ((x * w + b - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, loss.item())
print(w)
print(b)
print(opt.param_groups[0]["lr"], opt.param_groups[0]["momentum"])
print(opt)
