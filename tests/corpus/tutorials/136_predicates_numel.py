import torch

a = torch.tensor([1.0, 2.0, 3.0])
b = a + 1e-7
c = torch.tensor([1.0, 2.1, 3.0])
print(torch.allclose(a, b), torch.allclose(a, c), torch.allclose(a, c, atol=0.2))
print(torch.isclose(a, c))
print(torch.isclose(a, c, rtol=0.0, atol=0.05))
print(torch.is_tensor(a), torch.is_tensor([1.0]), torch.is_tensor(3))
print(torch.numel(torch.zeros(3, 4, 5)), a.numel(), a.nelement())
print(torch.equal(a, a.clone()), torch.is_floating_point(a))
print(torch.isnan(torch.tensor([1.0, float('nan')])), torch.isinf(torch.tensor([float('inf'), 0.0])))
print(torch.isfinite(torch.tensor([1.0, float('inf'), float('nan')])))
print(torch.eq(a, c), a.ne(c), torch.any(a > 2), torch.all(a > 0))
print(torch.where(a > 1.5, a, torch.zeros(3)))
