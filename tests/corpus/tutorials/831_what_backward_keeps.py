# Which values a backward keeps, seen through changes in place: a loss, an einsum or a
# convolution may be rescaled in place after it is computed (PyTorch keeps their inputs, not
# their results), while changing an input that a backward keeps is an error.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(4, 3, requires_grad=True)
target = torch.randn(4, 3)
labels = torch.tensor([0, 2, 1, 1])
w = torch.randn(2, 1, 3, requires_grad=True)


def report(name, make):
    x.grad = None
    out = make()
    out.mul_(0.5)  # scale the result in place
    out.sum().backward()
    print(f"{name:>10}: {x.grad.abs().sum().item():.6f}")


report("mse", lambda: F.mse_loss(x, target))
report("mse sum", lambda: F.mse_loss(x, target, reduction="sum"))
report("bce", lambda: F.binary_cross_entropy(torch.sigmoid(x), target.sigmoid()))
report("logits", lambda: F.binary_cross_entropy_with_logits(x, target.sigmoid()))
report("nll", lambda: F.nll_loss(F.log_softmax(x, dim=1), labels))
report("einsum", lambda: torch.einsum("ij,kj->ik", x, x))
report("conv1d", lambda: F.conv1d(x.unsqueeze(1), w))
report("sum", lambda: x.sum(dim=0))
report("cumsum", lambda: x.cumsum(dim=1))
report("where", lambda: torch.where(x > 0, x, 0.1 * x))
report("index", lambda: x[[0, 2]])


def change_input(name, make):
    x.grad = None
    h = x * 1
    out = make(h)
    h.add_(1.0)  # change an input of the operation in place
    try:
        out.sum().backward()
        print(f"{name:>10}: fine, {x.grad.abs().sum().item():.6f}")
    except RuntimeError as e:
        print(f"{name:>10}: {str(e)[:118]}")


change_input("sum", lambda h: h.sum())
change_input("mse", lambda h: F.mse_loss(h, target))
change_input("nll", lambda h: F.nll_loss(h, labels))
change_input("avg_pool", lambda h: F.avg_pool1d(h.unsqueeze(0), 2))
change_input("max_pool", lambda h: F.max_pool1d(h.unsqueeze(0), 2))
change_input("where", lambda h: torch.where(h > 0, 2 * x, x))
change_input("fmod", lambda h: torch.fmod(h, torch.tensor(0.7, requires_grad=True)))
change_input(
    "floor div",
    lambda h: torch.div(h, torch.tensor(2.0, requires_grad=True), rounding_mode="floor"),
)
change_input("mul", lambda h: h * 3.0)
change_input("div", lambda h: h / 3.0)

# a division that rounds keeps its inputs, so its graph is freed after one backward
a = torch.tensor([3.0, -2.5], requires_grad=True)
q = torch.div(a * 2, 2.0, rounding_mode="trunc")
q.sum().backward()
print(a.grad)
try:
    q.sum().backward()
except RuntimeError as e:
    print(str(e)[:90])
