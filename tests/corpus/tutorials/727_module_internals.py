import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 3)
        self.act = nn.ReLU()
        self.scale = nn.Parameter(torch.ones(1))
        self.register_buffer('running', torch.zeros(3))

    def forward(self, x):
        return self.act(self.fc(x)) * self.scale


net = Net()
lin = nn.Linear(2, 3)
for name in ['_modules', '_parameters', '_buffers', '_forward_hooks', '_backward_hooks',
             '_forward_pre_hooks', 'training', '_apply', 'cuda', 'cpu', 'to_empty', '_version',
             '_non_persistent_buffers_set', '_state_dict_hooks', '_is_full_backward_hook',
             'dump_patches', 'call_super_init', '_get_name', 'extra_repr', '_load_from_state_dict']:
    print(name, hasattr(net, name), hasattr(lin, name))
print(net._modules)
print(net._modules.keys())
print(list(net._parameters.items()))
print(lin._parameters.keys())
print(net._buffers)
print(lin._buffers)
print(net._forward_hooks)
print(net._forward_pre_hooks, net._backward_hooks)
for k, v in net._modules.items():
    print(k, type(v).__name__)
print(net.fc._parameters['weight'].shape)
print(getattr(net, 'training'), getattr(lin, '_modules'))
print(net._get_name(), lin._get_name())
print(lin.extra_repr())
print(type(net._modules).__name__, type(net._parameters).__name__)
print(len(net._modules), 'fc' in net._modules)
h = net.register_forward_hook(lambda m, i, o: None)
print(len(net._forward_hooks))
print(net.cpu() is net)
h.remove()
print(len(net._forward_hooks), net._is_full_backward_hook)
pre = lin.register_forward_pre_hook(lambda m, args: None)
print(len(lin._forward_pre_hooks), len(lin._forward_hooks))
lin.register_full_backward_hook(lambda m, gi, go: None)
print(lin._is_full_backward_hook, len(lin._backward_hooks), lin._backward_pre_hooks)
print(lin._version, lin.dump_patches, lin.call_super_init, net._non_persistent_buffers_set)
print(net._state_dict_hooks, net._load_state_dict_pre_hooks)
for owner in (net, lin):
    print([name for name in ('cuda', 'cpu', 'double', 'half', 'float') if callable(getattr(owner, name))])
