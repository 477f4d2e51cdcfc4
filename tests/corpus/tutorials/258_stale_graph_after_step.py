# Reusing a graph after the optimizer changed the weights: PyTorch's error names the weight's
# regenerated view; and the private `_grad` field some answers read.
import torch

torch.manual_seed(0)
layer = torch.nn.Linear(3, 2)
x = torch.randn(3, requires_grad=True)
loss = layer(x).pow(2).sum()
opt = torch.optim.SGD(layer.parameters(), lr=0.1)
for step in range(2):
    opt.zero_grad()
    try:
        loss.backward(retain_graph=True)
        print(step, layer.weight.grad.sum().item(), layer.weight._grad is layer.weight.grad)
    except RuntimeError as e:
        print(step, e)
    opt.step()
print(x._grad)
