# Editing models held in containers, as architecture-search and fine-tuning code does: drop
# layers from a ModuleList, swap heads in a ModuleDict, keep extra parameters in a
# ParameterDict (a plain dict's keys are sorted, an OrderedDict keeps its order), and read
# the encoder stack's settings.
from collections import OrderedDict

import torch
import torch.nn as nn

torch.manual_seed(0)
blocks = nn.ModuleList([nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 2)])
removed = blocks.pop(3)
print("removed:", removed)
print(blocks)
print("popped slice:", blocks.pop(slice(1, 3)))
print(len(blocks), [m._get_name() for m in blocks])

heads = nn.ModuleDict({"cls": nn.Linear(2, 3), "reg": nn.Linear(2, 1)})
old = heads.pop("reg")
heads.update({"reg": nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))})
heads.update([("aux", nn.Linear(2, 5))])
print(list(heads.keys()), old)
x = torch.randn(3, 4)
features = x
for layer in blocks:
    features = layer(features)
for name, head in heads.items():
    print(name, head(features).shape)
try:
    heads.pop("missing")
except KeyError as err:
    print("KeyError:", err)
heads.clear()
print(heads, len(heads))

extra = nn.ParameterDict({"scale": nn.Parameter(torch.ones(2)), "bias": nn.Parameter(torch.zeros(2))})
print(list(extra.keys()))
ordered = nn.ParameterDict(OrderedDict(scale=nn.Parameter(torch.ones(1)), bias=nn.Parameter(torch.zeros(1))))
print(list(ordered.keys()))
print(extra.get("scale"), extra.get("temperature"), extra.get("temperature", 1.0))
temperature = extra.setdefault("temperature", nn.Parameter(torch.tensor([0.5])))
print(temperature, list(extra.keys()))
key, value = extra.popitem()
print(key, value)
twin = extra.copy()
print(twin["scale"] is extra["scale"], list(twin.keys()))
print(extra.pop("bias"))
try:
    extra["bias"]
except AttributeError as err:
    print("AttributeError:", err)
print(sum(p.numel() for p in extra.parameters()))

layer = nn.TransformerEncoderLayer(d_model=4, nhead=2, dim_feedforward=8, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
print(encoder.num_layers, encoder.norm, encoder.enable_nested_tensor, encoder.use_nested_tensor,
      encoder.mask_check)
model = nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                       dim_feedforward=8, batch_first=True)
print(model.generate_square_subsequent_mask(4))
print(model.encoder.norm, model.d_model, model.nhead, model.batch_first)
