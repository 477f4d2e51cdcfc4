# Logistic regression with F.binary_cross_entropy on the sigmoid's output, printing the
# gradients at full precision (their last bits follow PyTorch's order: the upstream gradient
# times (p - t) / (p (1 - p)), then the weight, then the mean's division).
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x_train = torch.randn(12, 2)
y_train = (x_train[:, :1] + 0.5 * x_train[:, 1:] > 0).float()

W = torch.zeros((2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
optimizer = torch.optim.SGD([W, b], lr=1)

for epoch in range(201):
    hypothesis = torch.sigmoid(x_train.matmul(W) + b)
    cost = F.binary_cross_entropy(hypothesis, y_train)
    optimizer.zero_grad()
    cost.backward()
    optimizer.step()
    if epoch % 50 == 0:
        print("Epoch {:4d} Cost: {:.6f}".format(epoch, cost.item()), W.grad.view(-1).tolist())

p = torch.tensor([1e-4, 0.5, 0.9999, 0.3], requires_grad=True)
t = torch.tensor([0.0, 1.0, 1.0, 0.25], requires_grad=True)
weight = torch.tensor([0.5, 2.0, 1.0, 3.0])
for reduction in ("mean", "sum", "none"):
    loss = F.binary_cross_entropy(p, t, weight=weight, reduction=reduction)
    gp, gt = torch.autograd.grad(loss.sum() * 0.7, (p, t))
    print(reduction, gp.tolist(), gt.tolist())

crit = torch.nn.BCELoss()
p64 = torch.rand(5, dtype=torch.float64, requires_grad=True)
crit(p64, torch.ones(5, dtype=torch.float64)).backward()
print(p64.grad.tolist())
