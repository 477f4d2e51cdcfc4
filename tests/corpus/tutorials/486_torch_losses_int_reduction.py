import torch
import torch.nn.functional as F

# The losses torch has itself (torch.kl_div, torch.margin_ranking_loss, ...) are PyTorch's C++
# functions: `reduction` is an int (0 none, 1 mean, 2 sum) and by default they do not reduce
logp = torch.log_softmax(torch.tensor([[1.0, 2.0, 0.5], [0.1, 0.2, 3.0]]), dim=1)
logp.requires_grad_()
q = torch.tensor([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
print(torch.kl_div(logp, q))
print(torch.kl_div(logp, q, 1), F.kl_div(logp, q, reduction="batchmean"))
loss = torch.kl_div(logp, q, 2)
loss.backward()
print(loss, logp.grad)
print(torch.kl_div(logp, q.log(), 2, log_target=True))

a = torch.tensor([0.5, 2.0, -1.0], requires_grad=True)
b = torch.tensor([1.0, 1.5, -0.5])
y = torch.tensor([1.0, -1.0, 1.0])
print(torch.margin_ranking_loss(a, b, y))
print(torch.margin_ranking_loss(a, b, y, 0.25, 1), F.margin_ranking_loss(a, b, y, 0.25))
print(torch.hinge_embedding_loss(a, y), torch.hinge_embedding_loss(a, y, 2.0, 2))

anchor = torch.tensor([[0.0, 1.0], [1.0, 1.0]])
pos = torch.tensor([[0.1, 0.9], [2.0, 1.0]])
neg = torch.tensor([[0.0, 2.0], [1.0, 1.5]])
print(torch.triplet_margin_loss(anchor, pos, neg))
print(torch.triplet_margin_loss(anchor, pos, neg, 1.0, 2.0, 1e-6, True, 2))
print(torch.cosine_embedding_loss(anchor, pos, torch.tensor([1.0, -1.0]), 0.1, 1))

logits = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
target = torch.tensor([1.0, 0.0, 1.0])
# the 4th argument is pos_weight here (F's 4th is size_average)
bce = torch.binary_cross_entropy_with_logits(logits, target, None, torch.tensor([3.0]), 1)
bce.backward()
print(bce, logits.grad)
print(torch.binary_cross_entropy_with_logits(logits, target))

try:
    torch.kl_div(logp, q, "sum")
except TypeError as e:
    print(e)

# F's activations and losses without a torch.X twin
for name in ("gelu", "mse_loss", "softplus", "linear", "l1_loss"):
    print(name, hasattr(torch, name), hasattr(F, name))
try:
    torch.gelu(a)
except AttributeError as e:
    print(e)
# a module where an int is expected: Python's name of its class, "module"
try:
    torch.kl_div(a, a, reduction=torch)
except TypeError as e:
    print(e)
try:
    len(torch.autograd.Function)
except TypeError as e:
    print(e)
print(type(torch.autograd.Function))
# F.triplet_margin_loss refuses a margin <= 0 (its Python code); the C++ function computes it
an, po, ne = torch.tensor([[1.0, 2.0]]), torch.tensor([[0.0, 2.0]]), torch.tensor([[3.0, 1.0]])
print(torch.triplet_margin_loss(an, po, ne, 0.0), torch.triplet_margin_loss(an, po, ne, -1.0))
try:
    F.triplet_margin_loss(an, po, ne, margin=0.0)
except ValueError as e:
    print(e)
# None is not an int reduction (F's default is "mean"; the C++ function's 0, none); an int
# tensor of one element is one
for r in [None, torch.tensor(2)]:
    try:
        print(torch.kl_div(a, b, r))
    except TypeError as e:
        print(e)
# torch.poisson_nll_loss: all six arguments, no defaults
rate = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
counts = torch.tensor([1.0, 2.0, 3.0])
loss = torch.poisson_nll_loss(rate, counts, True, True, 1e-8, 1)
loss.backward()
print(loss, rate.grad, torch.poisson_nll_loss(rate, counts, False, False, 1e-8, 0))
