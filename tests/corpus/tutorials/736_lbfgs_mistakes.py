# The mistakes people make with LBFGS, and PyTorch's answers to them.
import torch

w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([0.5], requires_grad=True)

try:
    torch.optim.LBFGS([{"params": [w]}, {"params": [b], "lr": 0.1}])
except ValueError as e:
    print("ValueError:", e)

opt = torch.optim.LBFGS([w, b])
try:
    opt.step()
except TypeError as e:
    print("TypeError:", e)


def forgot_return():
    opt.zero_grad()
    loss = (w**2).sum() + b.sum()
    loss.backward()


try:
    opt.step(forgot_return)
except TypeError as e:
    print("TypeError:", e)

try:
    torch.optim.LBFGS([w], lr=-0.5)
except ValueError as e:
    print("ValueError:", e)


def closure():
    opt3.zero_grad()
    loss = (w**2).sum()
    loss.backward()
    return loss


opt3 = torch.optim.LBFGS([w], line_search_fn="backtracking")
try:
    opt3.step(closure)
except RuntimeError as e:
    print("RuntimeError:", e)

# A closure that never calls backward: the gradient is None, read as zeros, so the step
# returns at once with the first loss.
opt4 = torch.optim.LBFGS([b])
print(opt4.step(lambda: (b * 3).sum()), opt4.state[b])
