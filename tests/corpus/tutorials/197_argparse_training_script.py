# A training script's settings from argparse: run without a command line, every setting is
# its default; a notebook passes a list to parse_args to try other values.
import argparse

import torch
import torch.nn as nn


def get_args(argv=None):
    parser = argparse.ArgumentParser(description="Fit a line with a tiny network")
    parser.add_argument("--lr", type=float, default=0.05, help="learning rate")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--hidden-size", type=int, default="8")
    parser.add_argument("--optimizer", choices=["sgd", "adam"], default="sgd")
    parser.add_argument("--momentum", type=float, default=0.0)
    parser.add_argument("--log-every", type=int, default=10)
    parser.add_argument("--no-bias", action="store_true")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def train(args):
    torch.manual_seed(args.seed)
    x = torch.linspace(-1, 1, 16).unsqueeze(1)
    y = 3 * x - 0.5
    model = nn.Sequential(
        nn.Linear(1, args.hidden_size, bias=not args.no_bias),
        nn.Tanh(),
        nn.Linear(args.hidden_size, 1),
    )
    if args.optimizer == "sgd":
        opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=args.momentum)
    else:
        opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    for epoch in range(1, args.epochs + 1):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        if epoch % args.log_every == 0:
            print(f"[{args.optimizer}] epoch {epoch:3d}  loss {loss.item():.6f}")
    return loss


if __name__ == "__main__":
    args = get_args()
    print(args)
    train(args)
    other = get_args(["--optimizer", "adam", "--lr=0.01", "--epochs", "20", "--no-bias"])
    print(vars(other))
    print(train(other))
    args, unknown = argparse.ArgumentParser().parse_known_args(["--width", "3"])
    print(args, unknown)
