# torch.utils.module_tracker.ModuleTracker: the dotted names of the modules running, read
# inside a forward, from forward hooks and from gradient hooks during backward.
import torch
import torch.nn as nn
from torch.utils.module_tracker import ModuleTracker

torch.manual_seed(0)


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.query = nn.Linear(4, 4)
        self.gate = nn.Sigmoid()

    def forward(self, x):
        print("inside Attention.forward:", sorted(tracker.parents))
        return self.gate(self.query(x)) * x


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention()
        self.out = nn.Linear(4, 2)

    def forward(self, x):
        return self.out(self.attn(x))


model = Encoder()


def report(module, inputs, output):
    name = type(module).__name__
    print("after", name, sorted(tracker.parents), tracker.is_bw)
    output.register_hook(lambda g: print("grad at", name, sorted(tracker.parents), tracker.is_bw))


handles = [m.register_forward_hook(report) for m in model.modules()]

with ModuleTracker() as tracker:
    print(tracker.parents, tracker.is_bw)
    x = torch.randn(3, 4, requires_grad=True)
    loss = model(x).pow(2).mean()
    print("after forward:", sorted(tracker.parents))
    loss.backward()
    print("after backward:", tracker.parents, tracker.is_bw)
print(tracker.parents, type(tracker).__name__)
for h in handles:
    h.remove()
