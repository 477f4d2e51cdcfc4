# A beginner's loss with a plain Python target: PyTorch's loss functions want tensors on both
# sides, and say so in their own words (the size-comparing losses through target.size(), the
# others through the argument parser). The fix is torch.tensor(...).
import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(2, 1)
with torch.no_grad():
    model.weight.fill_(0.25)
    model.bias.fill_(-0.5)
features = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
out = model(features).squeeze(1)
print("prediction:", out)

attempts = [
    ("MSELoss, a float", lambda: nn.MSELoss()(out, 5.0)),
    ("L1Loss, a list", lambda: nn.L1Loss()(out, [1.0, 2.0])),
    ("smooth_l1, None", lambda: F.smooth_l1_loss(out, None)),
    ("huber, int", lambda: F.huber_loss(out, 3)),
    ("BCELoss, a float", lambda: nn.BCELoss()(torch.sigmoid(out), 1.0)),
    ("BCEWithLogits, a list", lambda: nn.BCEWithLogitsLoss()(out, [0.0, 1.0])),
    ("input a list", lambda: F.mse_loss([0.5, 1.5], torch.ones(2))),
    ("kl_div, a float", lambda: F.kl_div(out.log_softmax(0), 0.5)),
    ("soft margin, a list", lambda: F.soft_margin_loss(out, [1.0, -1.0])),
    ("hinge, input a float", lambda: F.hinge_embedding_loss(0.5, torch.ones(2))),
    ("poisson, target a float", lambda: F.poisson_nll_loss(out, 2.0)),
    ("multilabel, target a list", lambda: F.multilabel_soft_margin_loss(out, [1.0, 0.0])),
    ("gaussian, target None", lambda: F.gaussian_nll_loss(out, None, torch.ones(2))),
]
for name, attempt in attempts:
    try:
        attempt()
        print(f"{name}: computed")
    except (TypeError, AttributeError) as e:
        print(f"{name}: {type(e).__name__}: {e}")

# what the tutorial meant: the targets as a tensor
target = torch.tensor([5.0, 5.0])
loss = nn.MSELoss()(out, target)
loss.backward()
print(f"loss {loss.item():.4f}")
print("weight grad", model.weight.grad)
print("bias grad", model.bias.grad)
print(F.multilabel_soft_margin_loss(out, 1.0), F.gaussian_nll_loss(out, 2.0, torch.ones(2)))
