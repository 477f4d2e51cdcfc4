# Choosing the attention backend, the way the SDPA tutorial does it: the fused CPU kernel
# and the plain math path compute the same attention, each with its own autograd node.
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

torch.manual_seed(0)
batch, heads, seq, dim = 2, 4, 6, 8
query = torch.randn(batch, heads, seq, dim, requires_grad=True)
key = torch.randn(batch, heads, seq, dim)
value = torch.randn(batch, heads, seq, dim)

print(SDPBackend.MATH, SDPBackend.FLASH_ATTENTION.name, SDPBackend.FLASH_ATTENTION.value)
print(repr(SDPBackend.EFFICIENT_ATTENTION), SDPBackend(3))

default = F.scaled_dot_product_attention(query, key, value, is_causal=True)
print("default:", type(default.grad_fn).__name__)

with sdpa_kernel(SDPBackend.MATH):
    math_out = F.scaled_dot_product_attention(query, key, value, is_causal=True)
    print("inside math block, flash enabled:", torch.backends.cuda.flash_sdp_enabled())
print("math:", type(math_out.grad_fn).__name__)
print("after the block, flash enabled:", torch.backends.cuda.flash_sdp_enabled())

with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.MATH]) as ctx:
    both = F.scaled_dot_product_attention(query, key, value, is_causal=True)
print(ctx, torch.equal(both, default))
print("close:", torch.allclose(default, math_out, atol=1e-6))
print(math_out[0, 0, -1].detach().round(decimals=3))


@sdpa_kernel(SDPBackend.MATH)
def attend(q, k, v):
    return F.scaled_dot_product_attention(q, k, v)


print("decorated:", type(attend(query, key, value).grad_fn).__name__)

# a transposed query is not laid out for the fused kernel: the math path runs
q_t = torch.randn(batch, heads, dim, seq).transpose(-1, -2)
with sdpa_kernel(SDPBackend.MATH):
    reference = F.scaled_dot_product_attention(q_t, key, value)
print(torch.equal(F.scaled_dot_product_attention(q_t, key, value), reference))

# the fused kernel alone cannot do dropout or 3-D inputs
with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
    try:
        F.scaled_dot_product_attention(query, key, value, dropout_p=0.1)
    except RuntimeError as e:
        print("RuntimeError:", e)
# backends the CPU never runs
with sdpa_kernel([SDPBackend.EFFICIENT_ATTENTION, SDPBackend.CUDNN_ATTENTION]):
    try:
        F.scaled_dot_product_attention(query, key, value)
    except RuntimeError as e:
        print("RuntimeError:", e)
choice = sdpa_kernel("math")  # checked when the block starts
try:
    with choice:
        pass
except AssertionError as e:
    print("AssertionError:", e)

torch.backends.cuda.enable_flash_sdp(False)
print(torch.backends.cuda.flash_sdp_enabled(), torch.backends.cuda.math_sdp_enabled())
out = F.scaled_dot_product_attention(query, key, value, is_causal=True)
print(torch.equal(out, math_out))
out.sum().backward()
print(query.grad.shape, query.grad.abs().sum() > 0)
torch.backends.cuda.enable_flash_sdp(True)
