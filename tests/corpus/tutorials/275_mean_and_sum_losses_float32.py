import torch

torch.manual_seed(5)
pred = torch.randn(37, 3, requires_grad=True)
target = torch.randn(37, 3)
losses = {
    "sum": ((pred - target) ** 2).sum(),
    "mean": ((pred - target) ** 2).mean(),
    "mean_dim0": ((pred - target) ** 2).mean(dim=0).sum(),
    "sum_dim1": ((pred - target) ** 2).sum(dim=1).mean(),
    "mse": torch.nn.functional.mse_loss(pred, target),
}
for name, l in losses.items():
    pred.grad = None
    l.backward()
    print(f"{name:>9}: {l.item()!r} grad sum {pred.grad.sum().item()!r}")
print(pred.sum(dim=0), pred.mean(dim=1)[:4])
print(pred.t().sum(dim=1).tolist())
