# A common slip in a training loop: clipping the gradients before loss.backward(), right after
# zero_grad() set them to None. clip_grad_value_ then has no gradient to clip and PyTorch
# refuses; clip_grad_norm_ answers a zero norm. Clipping after backward clips them.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 0.5, -1.0]])
y = torch.tensor([[2.0], [-1.0]])

opt.zero_grad()
try:
    nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)
except RuntimeError as e:
    print("clip before backward:", e)
print("norm before backward:", nn.utils.clip_grad_norm_(model.parameters(), 1.0))
try:
    nn.utils.clip_grad_value_([], 0.5)
except RuntimeError as e:
    print("no parameters:", type(e).__name__)

loss = ((model(x) - y) ** 2).mean()
loss.backward()
nn.utils.clip_grad_value_(model.parameters(), clip_value=0.5)
print("clipped:", model.weight.grad.abs().max().item() <= 0.5, model.bias.grad.abs().item() <= 0.5)
# a parameter without a gradient is skipped when another one has one
model.bias.grad = None
nn.utils.clip_grad_value_(model.parameters(), 0.25)
print(model.weight.grad.abs().max().item() <= 0.25, model.bias.grad)
