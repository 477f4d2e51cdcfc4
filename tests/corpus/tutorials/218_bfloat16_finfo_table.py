import torch

for dt in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    fi = torch.finfo(dt)
    print(f"{str(dt):16s} bits={fi.bits:2d} eps={fi.eps:.3e} max={fi.max:.3e} tiny={fi.tiny:.3e}")

# 1 + eps/2 rounds back to 1 in each type
for dt in (torch.float16, torch.bfloat16, torch.float32):
    eps = torch.finfo(dt).eps
    one = torch.tensor(1.0, dtype=dt)
    print(dt, one + eps, one + eps / 2, (one + eps / 2 == one).item())

# overflow and underflow
print(torch.tensor([65504.0, 70000.0], dtype=torch.float16))
print(torch.tensor([65504.0, 70000.0, 1e38], dtype=torch.bfloat16))
print(torch.tensor([1e-40, 1e-39], dtype=torch.bfloat16))
print(torch.tensor(3e38, dtype=torch.bfloat16) * 2)
