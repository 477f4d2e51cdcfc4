# Checking for warnings the way tests and tutorials do: catch_warnings(record=True).
import warnings
import torch


def legacy_scale(x, factor=None):
    if factor is None:
        warnings.warn("legacy_scale() without factor is deprecated; pass factor=1.0",
                      DeprecationWarning)
        factor = 1.0
    return x * factor


x = torch.arange(3.0, requires_grad=True)

with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    y = legacy_scale(x)
    z = legacy_scale(x, 2.0)
    assert len(w) == 1
    assert issubclass(w[-1].category, DeprecationWarning)
    assert "deprecated" in str(w[-1].message)
print(y, z)
print(len(w), w[0].category.__name__, w[0].message)

# the warnings PyTorch itself gives are recorded the same way
h = x * 2
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(h.grad)
    print(x.grad)
print(len(caught), caught[0].category)
print(str(caught[0].message).split(".")[1].strip())

# "always" records every call, the default filter each place once
with warnings.catch_warnings(record=True) as every:
    warnings.simplefilter("always")
    for step in range(3):
        warnings.warn(f"step {step}: learning rate is high", RuntimeWarning)
print([str(m.message) for m in every])

with warnings.catch_warnings(record=True) as once_each:
    for step in range(3):
        warnings.warn("the same warning from one line")
print(len(once_each))

# filters inside the block decide what is recorded, and are undone after it
with warnings.catch_warnings(record=True) as kept:
    warnings.simplefilter("always")
    warnings.filterwarnings("ignore", category=UserWarning)
    warnings.warn("dropped")
    warnings.warn("kept", FutureWarning)
print([(m.category.__name__, str(m.message)) for m in kept])

# an error filter turns the warning into an exception
with warnings.catch_warnings():
    warnings.simplefilter("error", DeprecationWarning)
    try:
        legacy_scale(x)
    except DeprecationWarning as e:
        print("raised:", e)

# the record holds the warning instances
rec = w[0]
print(isinstance(rec.message, DeprecationWarning), isinstance(rec.message, Warning))
print(rec.message.args, rec.line, rec.lineno > 0)
