# Entropy-style terms written with xlogy / xlog1py, which treat 0 * log(0) as 0; the
# gradients reach both the weights and the probabilities.
import torch

torch.manual_seed(11)
torch.set_printoptions(precision=10)

p = torch.softmax(torch.randn(3, 8), dim=1).requires_grad_()
entropy = -torch.xlogy(p, p).sum(dim=1)
print("entropy", entropy)
entropy.sum().backward()
print("d entropy / d p", p.grad)

w = torch.rand(4000, requires_grad=True)
q = (torch.rand(4000) * 2).requires_grad_()
s = torch.special.xlog1py(w, q - 0.5).sum() + torch.xlogy(w, q).sum()
s.backward()
print("sum", s.item())
print("w grad", w.grad[:6], w.grad.sum().item())
print("q grad", q.grad[-6:], q.grad.sum().item())
print(torch.xlogy(torch.tensor([0.0, 2.0, 3.0]), torch.tensor([0.0, 0.7351141, 1.9])))
