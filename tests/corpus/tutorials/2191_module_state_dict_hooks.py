# Module state-dict hooks: drop the batch counters on save, forgive missing norm keys on load.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
        self.bn = nn.BatchNorm1d(2)
        self.register_load_state_dict_post_hook(self._ignore_bn)

    @staticmethod
    def _ignore_bn(module, keys):
        print("post-load", module.__class__.__name__, keys.missing_keys)
        keys.missing_keys[:] = [k for k in keys.missing_keys if not k.startswith("bn.")]

    def forward(self, x):
        return self.bn(self.fc(x))


net = Net()
net.register_state_dict_pre_hook(lambda m, prefix, keep_vars: print("saving", prefix, keep_vars))


def post(m, sd, prefix, meta):
    for k in list(sd):
        if k.endswith("num_batches_tracked"):
            del sd[k]


net.bn.register_state_dict_post_hook(post)
sd = net.state_dict(keep_vars=True)
print(list(sd), sd._metadata)
only_fc = {k: v for k, v in sd.items() if k.startswith("fc.")}
print(net.load_state_dict(only_fc))
h = net.bn.register_state_dict_post_hook(lambda m, sd, p, meta: sd)
try:
    net.state_dict()
except RuntimeError as e:
    print("RuntimeError:", e)
h.remove()
bad = net.register_load_state_dict_post_hook(lambda m, k: 1)
try:
    net.load_state_dict(only_fc)
except AssertionError as e:
    print("AssertionError:", e)
bad.remove()
shared = nn.Linear(1, 1)
seq = nn.Sequential(shared, nn.Sequential(shared))
seq.register_load_state_dict_post_hook(lambda m, k: print("seq", k))
shared.register_load_state_dict_post_hook(lambda m, k: print("shared", len(k.missing_keys)))
print(seq.load_state_dict(seq.state_dict()), list(seq.state_dict()._metadata))
try:
    net.load_state_dict({})
except RuntimeError as e:
    print(str(e)[:80])
print(net.fc.weight.shape, torch.nn.Linear(2, 2).state_dict(prefix="x.")._metadata)
