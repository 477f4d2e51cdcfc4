# What a notebook prints about its setup before training: versions, the device it picks,
# threads, determinism switches, the float type's limits.
import torch

print("torch", torch.__version__, "| cuda:", torch.version.cuda, "| hip:", torch.version.hip)
use_cuda = torch.cuda.is_available()
device = torch.device("cuda:0" if use_cuda else "cpu")
print(f"using {device} ({torch.cuda.device_count()} GPUs)")
torch.set_num_threads(1)
torch.manual_seed(1234)
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.use_deterministic_algorithms(True)
print(torch.get_num_threads(), torch.are_deterministic_algorithms_enabled())
info = torch.finfo(torch.float32)
print(info.eps, info.tiny, info.max)
x = torch.randn(3, device=device, requires_grad=True)
loss = (x.exp() - 1).pow(2).sum()
loss.backward()
print(x.device, x.grad)
