# A tiny softmax classifier (one scale per class) trained by hand: print the probabilities,
# the cross-entropy loss and the gradients at full precision.
import torch
import torch.nn.functional as F

torch.manual_seed(7)
torch.set_printoptions(precision=8)

X = torch.randn(6, 5) * 2
y = torch.tensor([0, 2, 1, 4, 3, 2])
W = torch.randn(5, requires_grad=True)
b = torch.zeros(5, requires_grad=True)

for step in range(3):
    logits = X * W + b  # one weight per class
    probs = F.softmax(logits, dim=1)
    loss = F.cross_entropy(logits, y)
    print(f"step {step}: loss = {loss.item():.8f}")
    print("row sums:", probs.sum(dim=1))
    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
        b -= 0.5 * b.grad
    print("grad of b:", b.grad)
    W.grad.zero_()
    b.grad.zero_()

# log-probabilities over the batch dimension, and their gradient
z = torch.randn(9, 3, requires_grad=True)
lp = torch.log_softmax(z, dim=0)
print(lp)
(lp * torch.arange(27.0).view(9, 3)).sum().backward()
print(z.grad)

# softmax over a long row (the vector loop and its tail)
v = (torch.randn(45) * 3).requires_grad_()
p = torch.softmax(v, 0)
print(p)
p[::4].sum().backward()
print(v.grad[:10])
