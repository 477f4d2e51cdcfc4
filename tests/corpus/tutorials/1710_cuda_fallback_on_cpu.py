# Code written for a GPU, run where PyTorch has no CUDA: the device checks answer "no GPU",
# the memory counters read zero, and the calls that need a GPU raise PyTorch's own errors,
# which a fallback can catch.
import torch
import torch.nn as nn

print("cuda available:", torch.cuda.is_available(), "devices:", torch.cuda.device_count())
print("allocated:", torch.cuda.memory_allocated(), torch.cuda.max_memory_allocated())
print("initialized:", torch.cuda.is_initialized())

weights = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
try:
    weights = weights.cuda()
except AssertionError as err:
    print("moving to the GPU failed:", err)

for attempt in ["cuda", "cuda:1", 0]:
    try:
        torch.zeros(3, device=attempt)
    except (AssertionError, RuntimeError) as err:
        print(repr(attempt), type(err).__name__, err)
try:
    gpu = torch.device(0)
except RuntimeError as err:
    print("torch.device(0):", err)

net = nn.Linear(3, 1)
try:
    net.to("cuda")
except AssertionError as err:
    print("model stays on the CPU:", err)
try:
    net.cuda(0)
except RuntimeError as err:
    print("by index:", err)
try:
    torch.cuda.synchronize()
except AssertionError as err:
    print("synchronize:", err)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
net = net.to(device)
x = torch.tensor([[1.0, 2.0, 3.0]], device=device)
loss = (net(x) - 1.0).pow(2).sum() + (weights**2).sum()
loss.backward()
print(device, weights.device, weights.grad, net.bias.grad.shape)
