# F.kl_div(input, target) computes xlogy(target, target) - target * input: 0 where a target is
# 0, NaN where it is negative or NaN (the log of a number below 0). Its gradient in the target
# is log(target) + 1 - input, NaN at a zero target (xlogy's 0 / 0).
import torch
import torch.nn.functional as F

log_q = torch.log_softmax(torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -0.5]]), dim=1)
log_q.requires_grad_(True)
targets = {
    "proper": torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.4, 0.0]]),
    "negative entry": torch.tensor([[0.5, -0.5, 1.0], [0.2, 0.3, 0.5]]),
    "nan entry": torch.tensor([[0.0, 0.5, 0.5], [float("nan"), 0.5, 0.5]]),
}
for name, p in targets.items():
    print(name)
    for reduction in ("batchmean", "sum", "none"):
        print(" ", reduction, F.kl_div(log_q, p, reduction=reduction))
    print("  log_target", F.kl_div(log_q, p.log(), reduction="sum", log_target=True))

p = torch.tensor([[0.2, 0.3, 0.5], [0.6, 0.4, 0.0]], requires_grad=True)
loss = F.kl_div(log_q, p, reduction="batchmean")
loss.backward()
print(loss)
print(log_q.grad)
print(p.grad)
print(torch.nn.KLDivLoss(reduction="sum")(log_q, targets["negative entry"]))
