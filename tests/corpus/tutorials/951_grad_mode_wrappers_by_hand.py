# torch.no_grad and its kin applied to functions by hand rather than with the @ syntax:
# wrapping an evaluation function once, then calling it inside and outside a training loop.
import torch

torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
x = torch.randn(8, 3)
target = x.sum(dim=1, keepdim=True)


def evaluate(batch):
    return ((model(batch) - target) ** 2).mean()


evaluate_frozen = torch.no_grad()(evaluate)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = evaluate(x)
    loss.backward()
    opt.step()
    check = evaluate_frozen(x)
    print(
        f"step {step}: loss {loss.item():.4f}, after step {check.item():.4f}, "
        f"requires_grad={check.requires_grad}"
    )


# torch.enable_grad() by hand: a gradient inside an evaluation block
def input_gradient(batch):
    batch = batch.clone().requires_grad_(True)
    evaluate(batch).backward()
    return batch.grad


with torch.no_grad():
    g = torch.enable_grad()(input_gradient)(x)
print(g[:2])

# set_grad_enabled(False)(f) restores the mode at once and decorates f
scaled = torch.set_grad_enabled(False)(lambda t: model(t) * 2)
print(torch.is_grad_enabled(), scaled(x[:1]).requires_grad, torch.is_grad_enabled())

# inference_mode() by hand
infer = torch.inference_mode()(model)
out = infer(x[:2])
print(out.is_inference(), out.requires_grad)
