import torch

torch.manual_seed(0)
W_xh = torch.randn(2, 3, requires_grad=True)
W_hh = (0.5 * torch.randn(3, 3)).requires_grad_()
inputs = torch.randn(6, 2)
targets = torch.randn(6, 3)

h = torch.zeros(3)
total = 0.0
for t, (x_t, y_t) in enumerate(zip(inputs, targets)):
    h = torch.tanh(x_t @ W_xh + h @ W_hh)
    loss = ((h - y_t) ** 2).mean()
    total += loss.item()
    if t % 2 == 1:
        loss.backward()
        h.detach_()
        print(f"t={t} loss={loss.item():.4f} |grad W_xh|={W_xh.grad.norm().item():.4f}")
        with torch.no_grad():
            W_xh -= 0.1 * W_xh.grad
            W_hh -= 0.1 * W_hh.grad
        W_xh.grad.zero_()
        W_hh.grad.zero_()

print(round(total, 4))
