# When does one LBFGS step stop? max_iter, max_eval (by default max_iter * 5 // 4),
# tolerance_grad on the largest gradient entry, tolerance_change on the step and the loss.
import torch


def run(**options):
    x = torch.tensor([2.0, -3.0, 1.0], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([x], **options)
    calls = [0]

    def closure():
        calls[0] += 1
        opt.zero_grad()
        loss = (x[0] - 1) ** 4 + (x[1] + 0.5) ** 2 + 3 * (x[2] * x[0]) ** 2
        loss.backward()
        return loss

    opt.step(closure)
    st = opt.state[x]
    print(
        options,
        "->",
        calls[0],
        "calls,",
        st["n_iter"],
        "iterations, loss",
        f"{closure().item():.6e}",
    )


run()
run(max_iter=5)
run(max_iter=5, max_eval=3)
run(tolerance_grad=1e-2)
run(tolerance_change=1e-3)
run(line_search_fn="strong_wolfe", max_eval=6)
run(history_size=1, max_iter=40)
