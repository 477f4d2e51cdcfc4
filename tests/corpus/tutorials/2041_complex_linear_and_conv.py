# nn layers with complex parameters (dtype=torch.cdouble / torch.cfloat): their random
# initialisation, a forward pass, complex gradients and a few optimizer steps.
import torch
import torch.nn as nn

torch.manual_seed(7)
layer = nn.Linear(3, 2, dtype=torch.cdouble)
print(layer)
print(layer.weight)
print(layer.bias)

inputs = torch.randn(4, 3, dtype=torch.cdouble)
out = layer(inputs)
print(out)
print(out.grad_fn.name())

power = out.abs().pow(2).sum()
power.backward()
print(layer.weight.grad)
print(layer.bias.grad)

# fitting a complex-valued linear map with Adam
torch.manual_seed(0)
net = nn.Sequential(
    nn.Linear(2, 2, dtype=torch.cdouble), nn.Linear(2, 1, bias=False, dtype=torch.cdouble)
)
x = torch.randn(8, 2, dtype=torch.cdouble)
y = x @ torch.tensor([[1 - 1j], [0.5j]], dtype=torch.cdouble)
opt = torch.optim.Adam(net.parameters(), lr=0.05)
for epoch in range(5):
    opt.zero_grad()
    loss = (net(x) - y).abs().pow(2).mean()
    loss.backward()
    opt.step()
    print(epoch, f"{loss.item():.6f}")

# a complex 1-d convolution: three real convolutions inside (Gauss's trick)
torch.manual_seed(3)
conv = nn.Conv1d(2, 3, kernel_size=3, padding=1, dtype=torch.cdouble)
signal = torch.randn(1, 2, 6, dtype=torch.cdouble)
response = conv(signal)
print(response.shape, response.dtype, response.grad_fn.name())
print(response[0, :, :2])
response.abs().sum().backward()
print(conv.bias.grad)
print(conv.weight.grad[0])

# float32 complex layers, and what complex tensors cannot do
small = nn.Conv1d(1, 1, 2, bias=False, dtype=torch.cfloat)
print(small.weight.dtype, small(torch.ones(1, 1, 4, dtype=torch.cfloat)).dtype)
nn.init.normal_(small.weight)
print(small.weight.abs().round(decimals=3))
try:
    nn.ReLU()(signal)
except RuntimeError as e:
    print("ReLU:", e)
try:
    nn.MSELoss()(response, response)
except RuntimeError as e:
    print("MSELoss:", e)
try:
    conv(signal.real)
except RuntimeError as e:
    print("conv:", e)
