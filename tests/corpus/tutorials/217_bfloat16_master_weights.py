import torch

# mixed precision by hand: float32 master weights, bfloat16 compute
torch.manual_seed(0)
master = torch.randn(3, requires_grad=True)
data = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
target = torch.tensor([1.0, -1.0])

for step in range(3):
    w16 = master.to(torch.bfloat16)
    pred = (data.to(torch.bfloat16) * w16).sum(dim=1)
    loss = ((pred - target.to(torch.bfloat16)) ** 2).mean()
    loss.backward()
    print(step, loss, master.grad)
    with torch.no_grad():
        master -= 0.05 * master.grad
    master.grad = None
print(master)
print(w16.grad_fn.name(), w16.grad_fn.next_functions[0][0].name())
