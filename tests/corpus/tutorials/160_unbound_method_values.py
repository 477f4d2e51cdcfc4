import torch

x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
activations = [torch.Tensor.sigmoid, torch.Tensor.tanh, torch.Tensor.relu, torch.sin]
outs = [fn(x) for fn in activations]
names = ["sigmoid", "tanh", "relu", "sin"]
for name, out in zip(names, outs):
    print(name, out.detach())

total = sum(o.sum() for o in outs)
total.backward()
print(x.grad)
print(torch.Tensor.dim(x), torch.Tensor.size(x))
print(torch.Tensor.clamp(x.detach(), min=0.5))
