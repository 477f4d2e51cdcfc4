import torch
import torch.nn.functional as F

pred = torch.tensor([0.5, 2.0, -1.0, 3.5], requires_grad=True)
tgt = torch.tensor([0.0, 2.5, -1.0, 1.0])

losses = {
    "l1": F.l1_loss(pred, tgt),
    "smooth_l1": F.smooth_l1_loss(pred, tgt),
    "smooth_l1_beta": F.smooth_l1_loss(pred, tgt, beta=0.5),
    "huber": F.huber_loss(pred, tgt, delta=2.0),
    "soft_margin": F.soft_margin_loss(pred, torch.tensor([1.0, -1.0, 1.0, -1.0])),
}
for name, loss in losses.items():
    (g,) = torch.autograd.grad(loss, pred)
    print(f"{name:15s} {loss.item():.4f} {g}")

logp = F.log_softmax(torch.tensor([[1.0, 2.0, 3.0]]), dim=1)
q = torch.tensor([[0.2, 0.3, 0.5]])
print(F.kl_div(logp, q, reduction='batchmean'))
print(F.kl_div(logp, q.log(), reduction='sum', log_target=True))

x1 = torch.tensor([1.0, 2.0, 3.0])
x2 = torch.tensor([2.0, 2.0, 1.0])
y = torch.tensor([1.0, -1.0, 1.0])
print(F.margin_ranking_loss(x1, x2, y, margin=0.5))

anchor = torch.tensor([[0.0, 0.0], [1.0, 1.0]], requires_grad=True)
pos = torch.tensor([[0.1, 0.0], [1.0, 1.5]])
neg = torch.tensor([[1.0, 0.0], [1.2, 1.0]])
t = F.triplet_margin_loss(anchor, pos, neg, margin=1.0)
t.backward()
print(t, anchor.grad)
