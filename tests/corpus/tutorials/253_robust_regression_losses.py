# Fitting a line with outliers: MSE vs L1 vs Huber vs SmoothL1, and a few other losses.
import torch
import torch.nn as nn

x = torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
y = torch.tensor([0.1, 1.9, 4.2, 5.8, 30.0, 10.1])   # y ~ 2x, one outlier

for loss_fn in [nn.MSELoss(), nn.L1Loss(), nn.HuberLoss(delta=1.0), nn.SmoothL1Loss(beta=0.5)]:
    w = torch.tensor(0.0, requires_grad=True)
    for _ in range(200):
        loss = loss_fn(w * x, y)
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
        w.grad.zero_()
    print(f"{str(loss_fn):<16} w = {w.item():.3f}")

pred = torch.tensor([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]]).log()
target = torch.tensor([[0.25, 0.5, 0.25], [0.0, 0.2, 0.8]])
kl = nn.KLDivLoss(reduction="batchmean")
print(kl, kl(pred, target))
print(nn.KLDivLoss(reduction="none")(pred, target))
print(nn.KLDivLoss(reduction="sum", log_target=True)(pred, target.clamp(min=1e-6).log()))

scores = torch.tensor([0.8, -0.3, 1.5], requires_grad=True)
others = torch.tensor([0.5, 0.2, 2.0])
order = torch.tensor([1.0, -1.0, 1.0])
mrl = nn.MarginRankingLoss(margin=0.2)(scores, others, order)
mrl.backward()
print(mrl, scores.grad)

print(nn.SoftMarginLoss()(torch.tensor([2.0, -1.0, 0.5]), torch.tensor([1.0, 1.0, -1.0])))
print(nn.HingeEmbeddingLoss(margin=2.0)(torch.tensor([0.5, 3.0, 1.0]), torch.tensor([1.0, -1.0, -1.0])))
emb_a = torch.tensor([[1.0, 0.0], [0.6, 0.8]])
emb_b = torch.tensor([[0.0, 1.0], [0.6, 0.8]])
print(nn.CosineEmbeddingLoss()(emb_a, emb_b, torch.tensor([-1.0, 1.0])))
anchor = torch.tensor([[0.0, 0.0], [1.0, 1.0]], requires_grad=True)
t = nn.TripletMarginLoss(margin=1.0, p=1)(anchor, anchor.detach() + 0.5, anchor.detach() - 0.25)
t.backward()
print(t, anchor.grad)
