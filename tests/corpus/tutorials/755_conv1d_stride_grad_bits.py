# The input gradient of strided 1-d convolutions printed to the last digit, for widths that
# are and are not a multiple of the stride, with padding.
import torch
import torch.nn.functional as F

torch.set_printoptions(precision=8)
torch.manual_seed(3)
for n, ci, co, L, k, s, p in [(5, 4, 4, 8, 3, 2, 0), (5, 4, 4, 9, 3, 2, 1), (2, 3, 5, 12, 5, 3, 2)]:
    x = torch.randn(n, ci, L, requires_grad=True)
    w = torch.randn(co, ci, k)
    out = F.conv1d(x, w, stride=s, padding=p)
    out.backward(torch.randn_like(out))
    print(out.shape, x.grad[0])
    print(x.grad.sum(dim=(0, 2)).tolist())
