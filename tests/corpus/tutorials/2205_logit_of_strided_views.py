# logit of float32 probabilities taken from views of a batch: a column slice, every other
# column, a transposed matrix. ATen walks a view row by row (its vector loop on whole steps of
# a row, the scalar loop on the rest), so each element's last bits depend on where it sits;
# the exact values are printed for the views, the contiguous ones rounded.
import torch

torch.manual_seed(0)
probs = torch.rand(6, 45) * 0.98 + 0.01
for name, v in {"cols 3..44": probs[:, 3:], "every other": probs[:, ::2], "first 20": probs[:, :20]}.items():
    z = torch.logit(v)
    print(name, tuple(z.shape), z[1].tolist())
    print("   with eps", torch.special.logit(v, eps=0.05)[4, :6].tolist())

batch = torch.rand(40, 101) * 0.98 + 0.01  # rows of 100 after the first column
z = torch.logit(batch[:, 1:])
for r in (0, 5, 13, 21):
    print("row", r, z[r].tolist())

print("transposed", [round(t, 4) for t in torch.logit(probs.t())[7].tolist()])
print("contiguous", [round(t, 4) for t in torch.logit(probs[2]).tolist()[:10]])

# the gradient 1 / (p (1 - p)) against a central difference in float64
p = probs[:, ::3].double().requires_grad_()
torch.logit(p).sum().backward()
h = 1e-7
fd = (torch.logit(p.detach() + h) - torch.logit(p.detach() - h)) / (2 * h)
print("gradient matches differences:", torch.allclose(p.grad, fd, rtol=1e-6))
