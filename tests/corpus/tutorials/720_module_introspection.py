# What utility code asks of modules it did not build: which layers can be reset or have
# running statistics, activation settings, loss settings, and the Module methods that
# return the module itself so calls can be chained.
import torch
import torch.nn as nn

layers = [
    nn.Linear(3, 2), nn.ReLU(), nn.ReLU(inplace=True), nn.Conv2d(1, 2, 3), nn.BatchNorm1d(3),
    nn.LSTM(2, 3), nn.Embedding(4, 2), nn.Sequential(nn.Tanh()), nn.LayerNorm(3),
    nn.Dropout(0.1), nn.MultiheadAttention(4, 2), nn.GRUCell(2, 2), nn.GELU(approximate="tanh"),
    nn.Softmax(dim=-1), nn.ELU(alpha=0.5), nn.PReLU(), nn.GroupNorm(1, 2), nn.Identity(),
]
names = ["reset_parameters", "reset_running_stats", "_reset_parameters", "flatten_parameters",
         "inplace", "weight", "bias", "dim", "approximate", "alpha", "p", "_get_name",
         "extra_repr", "training", "_modules", "_parameters", "forward"]
for m in layers:
    print(f"{m._get_name():<18}", "".join("x" if hasattr(m, a) else "." for a in names))

print([nn.ReLU(inplace=flag).inplace for flag in (False, True)])
print(nn.GELU(approximate="tanh").approximate, nn.Softmax(dim=-1).dim, nn.ELU(0.5).alpha)
print(nn.Hardtanh(-2.0, 2.0).min_val, nn.ReLU6().max_val, nn.Threshold(0.1, 20.0).value)
print(nn.Softplus(beta=2.0, threshold=10.0).threshold, nn.LogSoftmax(dim=1).dim)
for loss in [nn.MSELoss(), nn.L1Loss(reduction="sum"), nn.NLLLoss(ignore_index=0),
             nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0])), nn.HuberLoss(delta=0.5),
             nn.SmoothL1Loss(beta=0.2), nn.KLDivLoss(reduction="batchmean", log_target=True)]:
    settings = {k: getattr(loss, k) for k in ["reduction", "ignore_index", "pos_weight", "delta",
                                              "beta", "log_target"] if hasattr(loss, k)}
    print(loss._get_name(), settings)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh())
model.register_module("head", nn.Linear(4, 1))
same = model.train().eval().requires_grad_(True).share_memory()
print(same is model, model.training, model[0].training)
print(model.float() is model, model.double() is model, model[0].weight.dtype)
model.type(torch.float32)
print(model[2].bias.dtype, model.get_submodule("head"))
print(model(torch.ones(2, 3)))
print(nn.Upsample(scale_factor=2, mode="nearest").name, nn.MaxPool2d(2).return_indices)
print(nn.Conv2d(1, 1, 2).transposed, nn.ConvTranspose2d(1, 1, 2, output_padding=0).transposed)
for target in ["tail", "head.bias.x", "0.weight"]:
    try:
        print(model.get_submodule(target))
    except AttributeError as err:
        print("AttributeError:", err)
