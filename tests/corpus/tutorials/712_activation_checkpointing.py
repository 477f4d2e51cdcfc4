# Activation checkpointing as the memory-saving tutorials show it: a block whose activations
# are recomputed in backward (the print inside shows when), both variants, a model whose
# forward checkpoints its body, checkpoint_sequential over an nn.Sequential, and dropout that
# draws the same mask when it runs again.
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint as cp
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

torch.manual_seed(0)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc1 = nn.Linear(dim, 2 * dim)
        self.fc2 = nn.Linear(2 * dim, dim)

    def forward(self, x):
        print("  Block.forward runs (grad enabled: %s)" % torch.is_grad_enabled())
        h = F.dropout(F.gelu(self.fc1(x)), p=0.3, training=self.training)
        return x + self.fc2(h)


class Net(nn.Module):
    def __init__(self, dim, reentrant):
        super().__init__()
        self.body = Block(dim)
        self.head = nn.Linear(dim, 1)
        self.reentrant = reentrant

    def forward(self, x):
        x = checkpoint(self.body, x, use_reentrant=self.reentrant)
        return self.head(x)


for reentrant in (False, True):
    print("use_reentrant =", reentrant)
    torch.manual_seed(1)
    net = Net(3, reentrant)
    x = torch.randn(4, 3, requires_grad=True)
    print("forward")
    out = net(x)
    print(out.squeeze(1))
    print("backward")
    out.pow(2).mean().backward()
    print(x.grad)
    print(net.body.fc1.weight.grad[0])

# The same numbers as without checkpointing.
torch.manual_seed(1)
plain = Net(3, False)
torch.manual_seed(1)
x = torch.randn(4, 3, requires_grad=True)
h = plain.head(plain.body(x))
h.pow(2).mean().backward()
print(x.grad)


def attention_scores(q, k):
    print("  scores computed")
    s = q @ k.t() / 2.0
    return s.softmax(dim=-1), s


q = torch.randn(2, 4, requires_grad=True)
k = torch.randn(3, 4, requires_grad=True)
probs, raw = checkpoint(attention_scores, q, k, use_reentrant=False)
print(probs.grad_fn.name(), raw.grad_fn.name())
loss = (probs * torch.arange(3.0)).sum() + raw.sum()
loss.backward(retain_graph=True)
print(q.grad)
gq, gk = torch.autograd.grad(loss, [q, k])
print(gk)

probs, raw = checkpoint(attention_scores, q, k, use_reentrant=True)
print(probs.grad_fn.name(), raw.requires_grad)
try:
    torch.autograd.grad(probs.sum(), q)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    checkpoint(attention_scores, q, k=k, use_reentrant=True)
except ValueError as e:
    print("ValueError:", e)

model = nn.Sequential(
    nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2), nn.LogSoftmax(dim=1)
)
x = torch.randn(5, 3)
target = torch.tensor([0, 1, 1, 0, 1])
for segments in (2, 3):
    model.zero_grad()
    out = checkpoint_sequential(model, segments, x, use_reentrant=False)
    loss = F.nll_loss(out, target)
    loss.backward()
    print(segments, loss.item(), model[2].weight.grad.norm().item())
out = cp.checkpoint_sequential(model, 2, x.requires_grad_(), use_reentrant=True)
print(out.grad_fn.name())
