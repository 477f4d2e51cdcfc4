# The reproducibility lines many training scripts start with, cuDNN imported under its own
# name, then a small gradient check that the flags change nothing on the CPU.
import torch
import torch.backends.cudnn as cudnn
import torch.backends.mkldnn

def seed_everything(seed):
    torch.manual_seed(seed)
    cudnn.deterministic = True
    cudnn.benchmark = False

seed_everything(7)
print("cudnn:", cudnn.is_available(), cudnn.enabled, cudnn.deterministic, cudnn.benchmark)
print("mkldnn:", torch.backends.mkldnn.enabled, torch.backends.cudnn is cudnn)

x = torch.randn(5, requires_grad=True)
y = (x.sin() * x).sum()
y.backward()
print(x.grad)

try:
    import torch.backends.cuda.matmul as matmul_flags
except ModuleNotFoundError as err:
    print("not a module:", err)
torch.backends.cuda.matmul.allow_tf32 = False
print(torch.backends.cuda.matmul.allow_tf32)

try:
    cudnn.benchmark = "yes"
except RuntimeError as err:
    print(err)
