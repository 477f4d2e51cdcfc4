# Deprecation warnings as a program sees them: recorded with catch_warnings(record=True), their
# category checked (PyTorch gives some as FutureWarning, most as UserWarning), and turned into
# exceptions with simplefilter("error") the way a test suite does to catch deprecated calls.
import warnings

import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(3, 1)
model(torch.randn(4, 3)).pow(2).mean().backward()

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    total = torch.nn.utils.clip_grad_norm(model.parameters(), max_norm=0.5)
    sd = model.state_dict(None, "net.")
    y = torch.ones(2, requires_grad=True) * 2
    _ = y.grad
for w in caught:
    print(w.category.__name__, issubclass(w.category, DeprecationWarning), str(w.message)[:48])
print(f"{total:.4f}", list(sd))

for category in (FutureWarning, UserWarning):
    with warnings.catch_warnings():
        warnings.simplefilter("error", category)
        try:
            torch.nn.utils.clip_grad_norm(model.parameters(), 1.0)
            print(category.__name__, "not raised")
        except Warning as e:
            print(category.__name__, "raised", type(e).__name__)

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    torch.nn.utils.clip_grad_norm(model.parameters(), 1.0)
    print("ignored quietly")
