import torch

x = torch.tensor([[0.1, 0.2], [0.3, 1.0]])
print(x.tolist())
print(x[0, 0].item(), x.sum().item())
print(torch.tensor([0.1], dtype=torch.float64).item())
print(torch.tensor([1, 2, 3]).tolist(), torch.tensor(7).tolist(), type(torch.tensor(7).tolist()))
print(torch.tensor([True, False]).tolist(), torch.tensor(True).item())
print(torch.tensor([1.5], dtype=torch.float16).item(), torch.tensor([0.1], dtype=torch.float16).tolist())
print(torch.tensor(3).item() + 1, type(torch.tensor(3).item()))
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.uint8).tolist())
print(torch.zeros(2, 0).tolist(), torch.tensor([]).tolist())
print(torch.arange(3.0).tolist() == [0.0, 1.0, 2.0])
loss = torch.tensor(0.6931471805599453)
print(f"loss: {loss.item():.4f}", round(loss.item(), 3))
print(f"{x.sum().item()}")
w = torch.tensor([2.0], requires_grad=True)
print((w * 3).item(), w.tolist(), (w * 3).tolist())
try:
    x.item()
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    torch.tensor([]).item()
except RuntimeError as e:
    print("RuntimeError:", e)
print(float(torch.tensor([2.5])), int(torch.tensor(2.9)), int(torch.tensor(-2.9)))
try:
    float(x)
except ValueError as e:
    print("ValueError:", e)
print(torch.tensor(16777217.0).item(), torch.tensor(2**53 + 1).item())
