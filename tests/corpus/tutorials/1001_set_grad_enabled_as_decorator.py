# A helper frozen with @torch.set_grad_enabled(False): only its body runs without
# recording; the training code written after it still builds a graph.
import torch

torch.manual_seed(1)
w = torch.randn(3, requires_grad=True)
xs = torch.linspace(-1.0, 1.0, 6).reshape(2, 3)


@torch.set_grad_enabled(False)
def target_of(x):
    # a fixed teacher signal: no graph wanted here
    return (x * w).tanh() * 0.5


print("grad mode after the def:", torch.is_grad_enabled())
t = target_of(xs)
print("teacher requires grad:", t.requires_grad)

pred = (xs * w).sum(dim=1)
loss = ((pred - t.sum(dim=1)) ** 2).mean()
print("loss:", loss)
loss.backward()
print("w.grad:", w.grad)

with torch.no_grad():

    @torch.set_grad_enabled(True)
    def tracked(x):
        return (x * w).sum()

    print("inside no_grad after the def:", torch.is_grad_enabled())
    r = tracked(xs)
    print("tracked inside no_grad:", r.requires_grad, r.grad_fn is not None)

print("after the block:", torch.is_grad_enabled())
w.grad = None
tracked(xs[0]).backward()
print("w.grad from tracked:", w.grad)
