import torch

t = torch.tensor([0.1, 0.2, 0.7], dtype=torch.bfloat16)

# NumPy has no bfloat16: convert first
try:
    t.numpy()
except TypeError as e:
    print("TypeError:", e)
print(t.float().numpy())

print(t.tolist())
print(t[2].item(), float(t[0]), t.sum().item())
print([round(v, 4) for v in t.tolist()])
print(f"{t[1].item():.6f}")

# iinfo is only for integers
try:
    torch.iinfo(torch.bfloat16)
except TypeError as e:
    print("TypeError:", e)
print(torch.bfloat16, torch.bfloat16.is_floating_point, torch.bfloat16.itemsize)
print(t.dtype == torch.bfloat16, t.dtype is torch.bfloat16)

# comparing with a tolerance: the tolerances are applied in bfloat16 too
u = torch.tensor([1.0, 100.0, 0.001], dtype=torch.bfloat16)
v = u * 1.004
print(v, torch.isclose(u, v), torch.isclose(u, v, rtol=1e-2))
print(torch.allclose(u, v), torch.allclose(u, v, rtol=1e-2, atol=1e-3))

# dropout keeps the dtype
torch.manual_seed(0)
d = torch.nn.functional.dropout(torch.ones(8, dtype=torch.bfloat16), p=0.25)
print(d)
