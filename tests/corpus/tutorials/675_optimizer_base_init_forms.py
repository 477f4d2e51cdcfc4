import torch
w = torch.ones(3, requires_grad=True)
class O(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1):
        torch.optim.Optimizer.__init__(self, params, dict(lr=lr))
class P(O):
    def __init__(self, params):
        O.__init__(self, params, lr=0.25)
class Q(O):
    pass
p = P([w])
print(p, isinstance(p, O), issubclass(P, torch.optim.Optimizer))
print(type(p), O.__name__, Q([w]).defaults)
print(hasattr(p, 'step'), hasattr(p, 'param_groups'), hasattr(p, 'foo'), callable(p.zero_grad))
p.zero_grad()
try:
    p.step()
except NotImplementedError as e:
    print('NotImplementedError', repr(e))
