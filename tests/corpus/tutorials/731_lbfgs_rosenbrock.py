# The Rosenbrock valley, the textbook test of a quasi-Newton method: L-BFGS with a fixed step
# and with the strong Wolfe line search, from the same start, in double precision.
import torch


def rosenbrock(xy):
    x, y = xy[0], xy[1]
    return (1 - x) ** 2 + 100 * (y - x**2) ** 2


def minimise(search):
    xy = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([xy], history_size=10, max_iter=25, line_search_fn=search)

    def closure():
        opt.zero_grad()
        loss = rosenbrock(xy)
        loss.backward()
        return loss

    print("line search:", search)
    for i in range(4):
        before = opt.step(closure)
        print(i, before.item(), xy.tolist())
    print("evaluations", opt.state[xy]["func_evals"], "final", rosenbrock(xy).item())


for search in [None, "strong_wolfe"]:
    minimise(search)
