# Reading .grad while backward() is still running: PyTorch fills a parameter's .grad as soon
# as nothing more flows into it, so code that runs later in the same pass (a module's full
# backward hook, a custom Function's backward, a hook on an intermediate) already sees it.
import torch
import torch.nn as nn

torch.manual_seed(7)

# 1. Freeze one entry of a layer's weight from its full backward hook (the weight's gradient
#    is complete when the hook on the layer's inputs fires).
layer = nn.Linear(4, 3).double()
frozen = (1, 2)


def keep_frozen(module, grad_input, grad_output):
    print("hook sees weight.grad:", module.weight.grad is not None)
    module.weight.grad[frozen] = 0.0


handle = layer.register_full_backward_hook(keep_frozen)
x = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)
before = layer.weight.detach().clone()
opt = torch.optim.SGD(layer.parameters(), lr=0.5)
for step in range(2):
    opt.zero_grad()
    layer(x).sin().sum().backward()
    opt.step()
print("frozen entry moved:", (layer.weight - before)[frozen].item())
print("others moved:", round((layer.weight - before).abs().sum().item(), 6))
handle.remove()


# 2. A custom Function whose backward reports the gradients already accumulated.
class Report(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t.clone()

    @staticmethod
    def backward(ctx, g):
        print("in backward: w.grad =", w.grad, " b.grad =", b.grad, " h.grad =", h.grad)
        return g


t = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
w = torch.tensor([2.0, 0.5, -1.0], requires_grad=True)
b = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
u = Report.apply(t)
h = u * w
h.retain_grad()
(h.pow(2) + b).sum().backward()
print("after: t.grad =", t.grad, " h.grad =", h.grad)

# 3. A hook on an intermediate sees the bias gradient of the layer above it, not yet the
#    weight's of the layer below.
net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
with torch.no_grad():
    for p in net.parameters():
        p.copy_(torch.arange(p.numel(), dtype=torch.float32).reshape(p.shape) / 4 + 0.25)
z = torch.tensor([[1.0, -0.5], [0.25, 2.0]])
hidden = net[1](net[0](z))
hidden.register_hook(lambda g: print("hidden hook:", net[2].bias.grad, net[0].weight.grad))
net[2](hidden).sum().backward()
print(net[0].weight.grad)
