# Logistic regression by hand: BCEWithLogitsLoss on (x * w).sum(1) + b, SGD steps, the loss
# printed in full at every step.
import torch

torch.manual_seed(0)
X = torch.randn(32, 3)
y = (X[:, 0] - 0.5 * X[:, 2] > 0).float()
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
loss_fn = torch.nn.BCEWithLogitsLoss()
opt = torch.optim.SGD([w, b], lr=0.5)
for step in range(8):
    logits = (X * w).sum(dim=1) + b
    loss = loss_fn(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item(), [round(g, 5) for g in w.grad.tolist()])
weights = torch.tensor([1.0, 2.0, 0.5]).repeat(32, 1)
per = torch.nn.functional.binary_cross_entropy_with_logits(
    X, (X > 0).float(), weight=weights, reduction="none"
)
print(per[:2])
print(loss.grad_fn.name(), w)
