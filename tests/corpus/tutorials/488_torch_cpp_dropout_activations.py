# torch.dropout / alpha_dropout / feature_alpha_dropout, torch.selu / celu / threshold and
# torch.margin_ranking_loss are PyTorch's C++ functions, not F's Python ones: their own
# arguments (no inplace), their own checks (a RuntimeError for p outside [0, 1], worded with
# C++'s number: "but got 2"), and no check F's Python code adds (margin_ranking_loss's inputs
# of different numbers of dimensions broadcast).
import torch
import torch.nn.functional as F

x = torch.ones(2, 3)
for call in [
    lambda: torch.dropout(x, 1.5, True),
    lambda: torch.alpha_dropout(x, 2.0, True),
    lambda: torch.feature_alpha_dropout(x, -1.0, False),
    lambda: F.dropout(x, 2.0),
    lambda: torch.dropout(x, 0.5, 1),
    lambda: torch.dropout(x, "a", True),
]:
    try:
        call()
    except (RuntimeError, ValueError, TypeError) as e:
        print(type(e).__name__, e)
print(torch.dropout(x, 1.0, True), torch.dropout(x, 0.5, False))

v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
print(torch.selu(v), torch.celu(v, 2.0), torch.threshold(v, 0.6, -1.0))
print(F.selu(v), F.celu(v, 2.0, False), F.threshold(v, 0.6, -1.0, False))
for call in [
    lambda: torch.selu(v, True),
    lambda: torch.celu(v, 1.0, True),
    lambda: torch.threshold(v, 0.1, 0.0, True),
    lambda: torch.kl_div(v, v, 1, log_target=1),
]:
    try:
        call()
    except TypeError as e:
        print(e)

a = torch.tensor([[0.5, -1.0, 2.0, -0.25], [1.5, 0.0, -2.0, 0.75]], requires_grad=True)
b = torch.tensor([[1.0, 0.5, -1.0, 0.25], [0.5, 1.0, 2.0, -0.75]])
t = torch.tensor([1.0, -1.0, 1.0, -1.0])
loss = torch.margin_ranking_loss(a, b, t, 0.5, 1)
loss.backward()
print(loss, a.grad)
print(torch.margin_ranking_loss(a, b[0], t))
try:
    F.margin_ranking_loss(a, b, t)
except RuntimeError as e:
    print(e)

# torch.set_default_device: a device, its string or None; anything else in torch.device's words
for device in [torch.device("cpu"), None, 3.5, [1], 0]:
    try:
        torch.set_default_device(device)
        print("set", device)
    except (TypeError, RuntimeError) as e:
        print(type(e).__name__, e)
