# torch.hash_tensor: a quick fingerprint of a tensor's values (xor of their 64-bit
# patterns), e.g. to check that two runs produced the same weights.
import torch

torch.manual_seed(0)
weights = torch.randn(3, 4)
fingerprint = torch.hash_tensor(weights)
print(fingerprint, fingerprint.dtype)
print(torch.hash_tensor(weights.clone()) == fingerprint)
print(torch.hash_tensor(weights, dim=1), torch.hash_tensor(weights, dim=0, keepdim=True).shape)
print(torch.hash_tensor(torch.tensor([[1, 2], [3, 4]]), dim=(0, 1)))
print(
    torch.hash_tensor(torch.tensor([True, False, True])),
    torch.hash_tensor(torch.tensor([-1], dtype=torch.int8)),
)
print(weights.double().hash_tensor() == fingerprint)  # float32 values widen exactly
print(torch.hash_tensor(torch.zeros(0, 2), dim=1))
for bad in (
    lambda: torch.hash_tensor(torch.tensor([])),
    lambda: torch.hash_tensor(torch.tensor([1 + 2j])),
    lambda: torch.hash_tensor(weights, mode=3),
    lambda: torch.hash_tensor(torch.tensor([5], dtype=torch.uint32)),
):
    try:
        bad()
    except RuntimeError as e:
        print(type(e).__name__, e)
