# PyTorch 2.9+'s fine-grained float32 precision controls, read and set on a CPU build.
import torch
import torch.backends.mkldnn

print("defaults:", torch.backends.fp32_precision, torch.backends.mkldnn.fp32_precision,
      torch.backends.mkldnn.matmul.fp32_precision, torch.backends.cuda.matmul.fp32_precision)

# keep oneDNN matmuls in full IEEE float32, allow TF32 for convolutions only
torch.backends.mkldnn.matmul.fp32_precision = "ieee"
torch.backends.mkldnn.conv.fp32_precision = "tf32"
for op in ("matmul", "conv", "rnn"):
    print(op, getattr(torch.backends.mkldnn, op).fp32_precision)

# the generic setting fills every operation still left at "none"
torch.backends.fp32_precision = "bf16"
print("after generic bf16:", torch.backends.mkldnn.rnn.fp32_precision,
      torch.backends.mkldnn.matmul.fp32_precision, torch.backends.cuda.matmul.fp32_precision)
torch.backends.mkldnn.fp32_precision = "tf32"
print("mkldnn's own setter:", torch.backends.fp32_precision, torch.backends.cuda.matmul.fp32_precision)

for place, value in ((torch.backends.cuda.matmul, "bf16"), (torch.backends.mkldnn.matmul, "TF32")):
    try:
        place.fp32_precision = value
    except RuntimeError as e:
        print("RuntimeError:", e)

x = torch.linspace(-1, 1, 6, dtype=torch.float64).reshape(2, 3)
w = torch.arange(6, dtype=torch.float64).reshape(3, 2) / 4
print(x @ w)
torch.backends.fp32_precision = "none"
torch.backends.mkldnn.matmul.fp32_precision = "none"
print("reset:", torch.backends.mkldnn.matmul.fp32_precision, torch.backends.mkldnn.conv.fp32_precision)
