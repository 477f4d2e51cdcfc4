import torch
import torch.nn as nn

pred = torch.tensor([0.2, 0.8, -1.5, 3.0], requires_grad=True)
target = torch.tensor([0.0, 1.0, -1.0, 1.0])

for loss_fn in [nn.MSELoss(), nn.L1Loss(), nn.SmoothL1Loss(), nn.HuberLoss(delta=0.5),
                nn.SmoothL1Loss(beta=2.0), nn.L1Loss(reduction='sum')]:
    loss = loss_fn(pred, target)
    (g,) = torch.autograd.grad(loss, pred)
    print(loss_fn, round(loss.item(), 4), g)

probs = torch.tensor([0.9, 0.2, 0.6])
labels = torch.tensor([1.0, 0.0, 1.0])
print(nn.BCELoss()(probs, labels))
print(nn.BCEWithLogitsLoss()(torch.tensor([2.0, -1.0, 0.5]), labels))
print(nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0]))(torch.tensor([2.0, -1.0, 0.5]), labels))

logits = torch.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]])
classes = torch.tensor([1, 2])
print(nn.CrossEntropyLoss()(logits, classes))
print(nn.CrossEntropyLoss(label_smoothing=0.1)(logits, classes))
print(nn.NLLLoss()(torch.log_softmax(logits, dim=1), classes))
print(nn.CrossEntropyLoss(reduction='none')(logits, classes))
print(nn.KLDivLoss(reduction='batchmean')(torch.log_softmax(logits, 1), torch.softmax(logits.flip(1), 1)))
