# A generic training script that describes whatever model it is given by reading the layers'
# hyperparameters (as logging utilities and "model summary" helpers do), then trains it.
import torch
import torch.nn as nn

torch.manual_seed(7)

model = nn.Sequential(
    nn.Conv1d(2, 4, kernel_size=3, stride=1, padding=1),
    nn.BatchNorm1d(4, momentum=0.2),
    nn.LeakyReLU(0.1),
    nn.Dropout(p=0.25),
    nn.Flatten(),
    nn.Linear(4 * 5, 6),
    nn.ReLU(inplace=True),
    nn.LayerNorm(6, eps=1e-6),
    nn.Linear(6, 2),
)


def describe(module):
    for name, m in module.named_modules():
        if name == "":
            continue
        kind = m._get_name()
        if isinstance(m, nn.Conv1d):
            info = (m.in_channels, m.out_channels, m.kernel_size, m.stride, m.padding,
                    m.dilation, m.groups, m.padding_mode, m.transposed, m.output_padding)
        elif isinstance(m, nn.BatchNorm1d):
            info = (m.num_features, m.eps, m.momentum, m.affine, m.track_running_stats)
        elif isinstance(m, nn.LeakyReLU):
            info = (m.negative_slope, m.inplace)
        elif isinstance(m, nn.Dropout):
            info = (m.p, m.inplace)
        elif isinstance(m, nn.Flatten):
            info = (m.start_dim, m.end_dim)
        elif isinstance(m, nn.Linear):
            info = (m.in_features, m.out_features, m.bias is not None)
        elif isinstance(m, nn.ReLU):
            info = (m.inplace,)
        elif isinstance(m, nn.LayerNorm):
            info = (m.normalized_shape, m.eps, m.elementwise_affine)
        else:
            info = ()
        n_params = sum(p.numel() for p in m.parameters(recurse=False))
        print(f"{name:>2} {kind:<12} params={n_params:<4} {info}")


describe(model)
print("extra_repr of layer 0:", model[0].extra_repr())
print(model.get_submodule("5"))
print(model.get_parameter("7.weight"))
print(model.get_buffer("1.running_var"))

loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
print("loss:", loss_fn._get_name(), loss_fn.reduction, loss_fn.ignore_index, loss_fn.label_smoothing)

x = torch.randn(8, 2, 5)
y = torch.randint(0, 2, (8,))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(4):
    model.train()
    opt.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(dim=1) == y).float().mean()
    print(f"epoch {epoch} loss {loss.item():.4f} acc {acc.item():.3f}")
print(model[1].running_mean)
print(model.training, model[3].training)
