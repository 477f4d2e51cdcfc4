import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Linear(10, 32),
    nn.ReLU(),
    nn.Linear(32, 16),
    nn.ReLU(),
    nn.Linear(16, 2),
)

total = sum(p.numel() for p in model.parameters())
trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
print(f"total parameters: {total:,}")
print(f"trainable: {trainable}")
for name, param in model.named_parameters():
    print(f"{name:10s} {str(list(param.shape)):10s} {param.numel():5d}")

print([name for name, _ in model.named_children()])
print(len(list(model.modules())))
print(model[2])
