import torch

# bfloat16 has about 3 significant decimal digits
one = torch.tensor(1.0, dtype=torch.bfloat16)
print(one + 0.001)
print(one + 0.01)
print((one + 0.001) == one)

# integers above 256 are no longer all representable
big = torch.tensor(256.0, dtype=torch.bfloat16)
print(big + 1, big + 2)
print(torch.tensor([255, 256, 257, 258, 259], dtype=torch.bfloat16))

# the same computation in three precisions
for dt in (torch.float32, torch.float16, torch.bfloat16):
    v = torch.tensor([0.1, 0.2, 0.3], dtype=dt)
    print(dt, v.sum(), v * 3, (v * 3 - 0.3 * 3).abs().max())

# summing many small values: the result is rounded once at the end
small = torch.full((1000,), 0.001, dtype=torch.bfloat16)
print(small[0], small.sum(), small.mean())
acc = torch.tensor(0.0, dtype=torch.bfloat16)
for i in range(200):
    acc = acc + 0.01
print(acc)

# relative error against float64
w = torch.linspace(-3, 3, 7, dtype=torch.float64)
wb = w.to(torch.bfloat16)
err = (wb.double() - w).abs()
print(wb)
print(err)
print((w.exp().to(torch.bfloat16) - w.to(torch.bfloat16).exp()).abs().max())
