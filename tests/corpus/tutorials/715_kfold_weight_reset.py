# K-fold cross-validation the way many training tutorials write it: one model object, its
# weights reset before every fold with `model.apply(reset_weights)`, a fresh optimizer per fold,
# and the validation loss of each fold collected and averaged.
import torch
import torch.nn as nn

torch.manual_seed(42)

X = torch.randn(30, 4)
true_w = torch.tensor([[1.5], [-2.0], [0.5], [0.0]])
y = X @ true_w + 0.1 * torch.randn(30, 1)

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
loss_fn = nn.MSELoss()


def reset_weights(m):
    # Reset every layer that knows how; activations have nothing to reset.
    if hasattr(m, "reset_parameters"):
        print(f"Reset trainable parameters of layer = {m}")
        m.reset_parameters()


k = 3
fold_size = len(X) // k
results = {}
for fold in range(k):
    print(f"FOLD {fold}")
    print("--------------------------------")
    val_idx = torch.arange(fold * fold_size, (fold + 1) * fold_size)
    mask = torch.ones(len(X), dtype=torch.bool)
    mask[val_idx] = False
    X_train, y_train = X[mask], y[mask]
    X_val, y_val = X[val_idx], y[val_idx]

    model.apply(reset_weights)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    for epoch in range(25):
        optimizer.zero_grad()
        loss = loss_fn(model(X_train), y_train)
        loss.backward()
        optimizer.step()
        if epoch % 8 == 0:
            print(f"  epoch {epoch:2d} train loss {loss.item():.5f}")
    with torch.no_grad():
        val_loss = loss_fn(model(X_val), y_val).item()
    print(f"Validation loss for fold {fold}: {val_loss:.5f}")
    results[fold] = val_loss

print("K-FOLD CROSS VALIDATION RESULTS FOR 3 FOLDS")
for fold, value in results.items():
    print(f"Fold {fold}: {value:.5f}")
print(f"Average: {sum(results.values()) / len(results):.5f}")
print(model[0].weight)
