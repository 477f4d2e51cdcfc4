import torch

torch.manual_seed(3)
w = torch.randn(3, requires_grad=True)
for epoch in range(3):
    loss = ((w - 1.0) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        w.grad.zero_()
    print(f"epoch {epoch:02d} | loss {loss.item():10.6f} | {loss.item():.3e} | w[0]={w[0].item():+.4f}")
    print("loss %.5f, w %s" % (loss.item(), w.detach()))
    print("{:>12.4f}|{:<8.2f}|".format(loss.item(), w.sum().item()))
print(f"{loss:.3f}", format(w[1], ".2f"), f"{w.detach()}")
print(f"{torch.tensor(3):d} {torch.tensor(2.5):.1%} {w.sum().item():g}")
