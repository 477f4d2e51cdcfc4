import torch

loss = torch.tensor(0.123456)
x = torch.tensor([1.5, -2.25, 3.0], requires_grad=True)
print(f"{loss:.3f} {loss.item():.2e} {loss}")
print(f"{x}")
print(f"{x.sum()=}")
print(f"{x.tolist()}")
print("loss: %.4f" % loss)
print("loss: {:.4f}, grad: {}".format(loss.item(), x.grad))
print("%s | %d items" % (x.detach(), len(x)))
print(f"{'name':<6}|{'value':>8}|")
for name, v in [("a", 1.0), ("bb", 22.5)]:
    print(f"{name:<6}|{v:>8.2f}|")
print(type(x), type(loss.item()), type(x.shape), type(x.dtype))
print(isinstance(x, torch.Tensor), isinstance(x.shape, tuple), isinstance(x, (int, float)))
print(str(x.dtype), repr(x.dtype), x.device, x.shape, x.size(0))
print(x.detach().numpy(), x.detach().numpy().dtype)
print(torch.Tensor.tanh(x.detach()))
