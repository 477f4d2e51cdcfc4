import torch

device = torch.device('cpu')
print(device)
print(device.type)

x = torch.tensor([1.0, 2.0, 3.0], device=device, requires_grad=True)
print(x.device)

W = torch.ones(2, 3).to(device)
y = W @ x
y.sum().backward()

g = x.grad.cpu()
print(g)
arr = g.numpy()
print(arr)
print(type(arr), arr.dtype, arr.shape)
print(y.detach().cpu().numpy())
print(x.to("cpu").detach().numpy().sum())
print(torch.cuda.is_available())
dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
print(dev, x.to(dev).device == x.device)
