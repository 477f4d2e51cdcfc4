# A three-class softmax regression written from scratch (weights as tensors, the scores as a
# broadcast product summed over the features), trained with F.cross_entropy; every loss is
# printed in full, as loss.item() shows it, then log-probabilities and probabilities.
import torch
import torch.nn.functional as F

torch.manual_seed(0)

# Three blobs of 2-d points, 20 points each.
centers = torch.tensor([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])
X = torch.cat([c + 0.6 * torch.randn(20, 2) for c in centers])
y = torch.arange(3).repeat_interleave(20)

W = (0.1 * torch.randn(2, 3)).requires_grad_()
b = torch.zeros(3, requires_grad=True)


def scores(inputs):
    return (inputs.unsqueeze(2) * W).sum(dim=1) + b


lr = 0.5
for epoch in range(15):
    loss = F.cross_entropy(scores(X), y)
    loss.backward()
    with torch.no_grad():
        W -= lr * W.grad
        b -= lr * b.grad
        W.grad.zero_()
        b.grad.zero_()
    print(f"epoch {epoch:2d} loss {loss.item()!r}")

with torch.no_grad():
    logits = scores(X)
    print("final loss", F.cross_entropy(logits, y).item())
    print("weighted", F.cross_entropy(logits, y, weight=torch.tensor([1.0, 2.0, 0.5])).item())
    print("summed", F.cross_entropy(logits, y, reduction="sum").item())
    logp = F.log_softmax(logits, dim=1)
    print("nll", F.nll_loss(logp, y).item())
    print(logp[:4].tolist())
    probs = logits.softmax(dim=-1)
    print(probs[::7].tolist())
    print(torch.softmax(logits, dim=0)[:3].tolist())
    acc = (probs.argmax(dim=1) == y).float().mean().item()
    print("accuracy", acc)
