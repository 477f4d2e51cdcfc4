# The device-picking lines notebooks start with, then a small fit on whatever device that is.
import torch
import torch.nn as nn

torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.backends.cuda.matmul.allow_tf32 = True
if torch.cuda.is_available():
    device = torch.device("cuda")
elif torch.backends.mps.is_available() and torch.backends.mps.is_built():
    device = torch.device("mps")
else:
    device = torch.device("cpu")
print(f"Using device: {device}")
print("cuDNN:", torch.backends.cudnn.is_available(), torch.backends.cudnn.enabled)
print("MKL-DNN:", torch.backends.mkldnn.is_available(), "OpenMP:", torch.backends.openmp.is_available())
print("CUDA built:", torch.backends.cuda.is_built(), "TF32:", torch.backends.cuda.matmul.allow_tf32)

torch.manual_seed(0)
model = nn.Linear(3, 1).to(device)
x = torch.randn(16, 3, device=device)
y = x @ torch.tensor([[1.0], [-2.0], [0.5]], device=device) + 0.3
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(50):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(round(loss.item(), 6), model.weight.data, model.bias.data.cpu().numpy())

# The flags take bools only, as PyTorch's setters say.
for value in (1, "yes"):
    try:
        torch.backends.cudnn.benchmark = value
    except RuntimeError as e:
        print("RuntimeError:", e)
torch.backends.mkldnn.enabled = False
print(torch.backends.mkldnn.enabled, torch.backends.cudnn.benchmark)
