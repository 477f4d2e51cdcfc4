# Tracing an nn.Sequential directly: each child is one call_module node (a nested
# Sequential is traced through), the input named input_1 as PyTorch names it.
import torch, torch.fx
m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Sigmoid()))
g = torch.fx.symbolic_trace(m)
print(g)
print(g.graph)
print(g(torch.ones(1, 2)).shape)
