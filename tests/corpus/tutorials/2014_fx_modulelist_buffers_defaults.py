# Tracing a module with a loop over a ModuleList, a buffer, a helper method, default
# arguments and a dict output: the graph keeps only what depends on the inputs.
import torch, torch.fx
import torch.nn as nn
import torch.nn.functional as F
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
        self.register_buffer("mean", torch.zeros(4))
        self.drop = nn.Dropout(0.1)
    def helper(self, x, scale=2):
        return x * scale
    def forward(self, x, y=None):
        x = (x - self.mean) / (self.mean + 1)
        for layer in self.layers:
            x = F.gelu(layer(x))
        x = self.helper(x, scale=3)
        x = x + torch.ones(4)
        h = torch.cat([x, x.flatten(1)], dim=1)
        w = self.layers[0].weight
        z = h.view(h.size(0), -1).to(torch.float64)
        z = F.dropout(z, p=0.5, training=self.training)
        z = torch.flatten(z, 1).transpose(0, 1).contiguous()
        return {"out": z.mean(), "w": w.t(), "n": x.dim(), "shape": x.shape[1]}
gm = torch.fx.symbolic_trace(M())
print(gm.code)
print(gm)
gm.eval()
out = gm(torch.ones(2, 4))
print(sorted(out))
