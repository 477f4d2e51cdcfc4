import torch

torch.manual_seed(0)
w = torch.randn(4, 6)
print(w)
torch.set_printoptions(precision=2, linewidth=40)
print(w)
torch.set_printoptions(threshold=10, edgeitems=2)
print(torch.arange(100.0).reshape(10, 10))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([0.5, 1234.5]))
torch.set_printoptions(profile="default")
print(torch.tensor([0.5, 1234.5]))

# Layout: views share storage, transposes are not contiguous.
m = torch.arange(12.0).reshape(3, 4)
print(m.stride(), m.t().stride(), m.is_contiguous(), m.t().is_contiguous())
print(m[:, 1].stride(), m[::2].stride(), m.unsqueeze(0).expand(2, 3, 4).stride())
c = m.t().contiguous()
print(c.stride(), c.is_contiguous(), m.contiguous() is m)
try:
    m.t().view(12)
except RuntimeError as e:
    print(e)
print(m.t().reshape(12))
print(torch.LongTensor([3, 4]) * 2, torch.BoolTensor([1, 0]), torch.IntTensor([[7]]))
