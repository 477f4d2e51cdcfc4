import torch

x = torch.tensor([[2.0, 9.0, 4.0, 4.0], [1.0, 1.0, 7.0, 3.0]], requires_grad=True)
print(torch.median(x))
print(torch.median(x, dim=1))
print(torch.mode(torch.tensor([3, 1, 3, 2, 1, 3])))
print(torch.std_mean(x))
print(torch.var_mean(x, dim=1))
print(torch.std(x, dim=0, correction=0))
print(x.var(), x.std(dim=1))

torch.median(x).backward()
print(x.grad)

y = torch.tensor([1.0, 4.0, 9.0, 16.0])
print(torch.trapezoid(y))
print(torch.trapezoid(y, dx=0.5))
print(torch.trapezoid(y, x=torch.tensor([0.0, 1.0, 3.0, 6.0])))
print(torch.quantile(y, 0.5), torch.amax(x.detach(), dim=0), x.detach().argmax())
