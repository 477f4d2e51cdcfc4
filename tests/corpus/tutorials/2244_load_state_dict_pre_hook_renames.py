# Loading an old checkpoint into a refactored model: a load_state_dict pre-hook renames the
# keys the old code saved, before the model looks for its own.
import torch
import torch.nn as nn

torch.manual_seed(4)


class OldNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Linear(4, 3)
        self.classifier = nn.Linear(3, 2)


class NewNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(4, 3)
        self.norm = nn.BatchNorm1d(3)
        self.head = nn.Linear(3, 2)
        self.register_load_state_dict_pre_hook(NewNet._upgrade)

    @staticmethod
    def _upgrade(
        module,
        state_dict,
        prefix,
        local_metadata,
        strict,
        missing_keys,
        unexpected_keys,
        error_msgs,
    ):
        renames = {"features.": "backbone.", "classifier.": "head."}
        for key in list(state_dict.keys()):
            for old, new in renames.items():
                if key.startswith(prefix + old):
                    state_dict[prefix + new + key[len(prefix + old) :]] = state_dict.pop(key)
        print(
            "upgrade at", repr(prefix), "version", local_metadata.get("version"), "strict", strict
        )


seen = []


def log_keys(module, state_dict, prefix, *rest):
    seen.append((type(module).__name__, prefix, sorted(state_dict)))


old = OldNet()
checkpoint = old.state_dict()
model = NewNet()
handle = model.norm.register_load_state_dict_pre_hook(log_keys)
result = model.load_state_dict(checkpoint, strict=False)
print(result)
for entry in seen:
    print(entry)
print(torch.equal(model.backbone.weight, old.features.weight))
print(torch.equal(model.head.bias, old.classifier.bias))
print("checkpoint untouched:", list(checkpoint))
print(len(model._load_state_dict_pre_hooks), len(model.norm._load_state_dict_pre_hooks))

handle.remove()
seen.clear()
model.load_state_dict(model.state_dict())
print("after remove:", seen)


# the private form, without the module, and a hook that refuses a checkpoint
def refuse_wrong_width(
    state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
):
    weight = state_dict.get(prefix + "weight")
    if weight is not None and weight.shape[1] != 4:
        error_msgs.append(f"{prefix}weight: expected 4 inputs, found {weight.shape[1]}")


model.backbone._register_load_state_dict_pre_hook(refuse_wrong_width)
wide = nn.Linear(6, 3).state_dict()
try:
    model.backbone.load_state_dict(wide)
except RuntimeError as err:
    print(err)
