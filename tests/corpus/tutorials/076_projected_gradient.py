import torch

# minimise a quadratic over the box [0, 1]^3 with projection after each step
target = torch.tensor([1.5, -0.5, 0.3])
x = torch.full((3,), 0.5, requires_grad=True)

for step in range(5):
    loss = ((x - target) ** 2).sum()
    loss.backward()
    with torch.no_grad():
        x.sub_(0.3 * x.grad)
        x.clamp_(0.0, 1.0)
    x.grad.zero_()
    print("step {}: loss={:.4f} x={}".format(step, loss.item(), x.tolist()))
