# Checking what goes wrong when a program scripts the wrong thing or imports a missing module.
import torch

data = torch.linspace(0, 1, 4)
for thing in (data, 7, "relu", (1, 2)):
    try:
        torch.jit.script(thing)
    except TypeError as err:
        print(f"TypeError for {type(thing).__name__}: {err}")

try:
    import torch.utils.not_a_real_module
except ModuleNotFoundError as err:
    print("missing module:", err.name, "| path:", err.path, "| msg:", err.msg)

try:
    import torch.nn.experimental_layers as layers
except ImportError as err:
    print(type(err).__name__, repr(err.name), err.args)

own = ImportError("plugin missing")
print(own.name, own.path, own.msg, isinstance(own, Exception))
