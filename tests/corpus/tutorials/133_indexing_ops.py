import torch

x = torch.arange(1.0, 7.0).reshape(2, 3).requires_grad_()
print(torch.flip(x, dims=[1]))
print(torch.roll(x, shifts=1, dims=1))
print(torch.tile(x, (1, 2)))
print(torch.narrow(x, 1, 1, 2))
print(torch.index_select(x, 1, torch.tensor([2, 0])))
print(torch.gather(x, 1, torch.tensor([[0, 0], [2, 1]])))
print(torch.masked_select(x, x > 2.5))
print(torch.take(x, torch.tensor([0, 5, 3])))

src = torch.tensor([[10.0, 20.0, 30.0]])
print(torch.zeros(2, 3).scatter(0, torch.tensor([[1, 0, 1]]), src))
print(torch.zeros(4).scatter_add(0, torch.tensor([0, 1, 1, 3]), torch.tensor([1.0, 2.0, 3.0, 4.0])))

y = torch.gather(x, 1, torch.tensor([[0, 0], [2, 1]])).sum() + torch.flip(x, [0])[0, 0] * 10
y.backward()
print(x.grad)

t = torch.arange(10)
print(t[t % 3 == 0], t[-3:], t[::3], t[torch.tensor([1, 1, 4])])
