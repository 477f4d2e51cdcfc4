# The device line of PyTorch's quickstart, and a script that stops early with exit().
import torch

device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True, device=device)
for step in range(100):
    loss = ((w - 1) ** 2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.2 * w.grad
    w.grad.zero_()
    if loss.item() < 1e-3:
        print("converged at step", step, loss.item())
        try:
            exit(0)
        finally:
            print("final w:", w)
print("not reached")
