# What an LBFGS optimizer keeps: its one parameter group, the state under the first parameter
# (func_evals, n_iter, the curvature pairs), saved and restored with state_dict.
import torch

w = torch.tensor([3.0, -1.0], dtype=torch.float64, requires_grad=True)
scale = torch.tensor([1.5, 0.5], dtype=torch.float64)
opt = torch.optim.LBFGS([w], history_size=3, max_iter=4)
print(opt)


def closure():
    opt.zero_grad()
    loss = (scale * w * w).sum() + 0.5 * w[0] * w[1] - w.sum()
    loss.backward()
    return loss


opt.step(closure)
state = opt.state[w]
print(sorted(state.keys()))
print(state["func_evals"], state["n_iter"], len(state["old_dirs"]), state["H_diag"])
print(state["ro"])
saved = opt.state_dict()
print(saved["param_groups"])
print(list(saved["state"].keys()), saved["state"][0]["n_iter"])

w2 = torch.tensor(w.detach().tolist(), dtype=torch.float64, requires_grad=True)
opt2 = torch.optim.LBFGS([w2], history_size=3, max_iter=4)
opt2.load_state_dict(saved)


def closure2():
    opt2.zero_grad()
    loss = (scale * w2 * w2).sum() + 0.5 * w2[0] * w2[1] - w2.sum()
    loss.backward()
    return loss


# (the loaded state shares its tensors with the first optimizer, as .to() makes no copy:
# the first one's step changes prev_flat_grad under the second)
print(opt.step(closure).item(), opt2.step(closure2).item())
print(w.tolist())
print(w2.tolist())
print(opt.param_groups[0]["max_eval"], opt2.state[w2]["func_evals"])
