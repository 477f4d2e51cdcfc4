import torch

torch.manual_seed(0)
big = torch.arange(1200, dtype=torch.float32).reshape(30, 40) / 7
print(big)
print(torch.randn(3, 4) * 1e5)
print(torch.tensor([1e-5, 1.0, 123456.0]))
print(torch.tensor([0.001, 0.01]))
print(torch.tensor([[1.0, -2.5], [3.25, 4.0]], requires_grad=True) * 2)
print(torch.zeros(2, 0), torch.tensor([]), torch.ones(2, 1, 2))
print(torch.tensor(float("inf")), torch.tensor([float("nan"), 1.0, -float("inf")]))
print(torch.arange(5).float().requires_grad_())
print(torch.tensor([True, False]), torch.tensor(7), torch.tensor(-0.0))
