# Recurrent layers and embeddings subclassed the way sequence-model tutorials write them:
# an LSTM that returns its last step, a GRU with a hidden state given, an embedding scaled
# by sqrt(d), multi-head self-attention with one argument, activations and a loss.
import torch
import torch.nn as nn


class LastStepLSTM(nn.LSTM):
    def __init__(self, n_in, n_hidden):
        super().__init__(n_in, n_hidden, batch_first=True)
        self.tag = "last-step"

    def forward(self, x):
        out, (h, c) = super().forward(x)
        return out[:, -1]


class ZeroStateGRU(nn.GRU):
    def forward(self, x):
        h0 = torch.zeros(self.num_layers, x.shape[1], self.hidden_size)
        return super().forward(x, h0)


class ScaledEmbedding(nn.Embedding):
    def forward(self, idx):
        return super().forward(idx) * self.embedding_dim**0.5


class SelfAttention(nn.MultiheadAttention):
    def forward(self, x):
        out, _ = super().forward(x, x, x, need_weights=False)
        return out


class ShiftedReLU(nn.ReLU):
    def forward(self, x):
        return super().forward(x - 0.5)


class DoubledMSE(nn.MSELoss):
    def forward(self, a, b):
        return 2 * super().forward(a, b)


class Leaky(nn.LeakyReLU):
    def __init__(self):
        super().__init__(0.2)


torch.manual_seed(0)
lstm = LastStepLSTM(3, 4)
print(lstm, lstm.tag)
x = torch.randn(2, 5, 3)
last = lstm(x)
print(last)
last.sum().backward()
print(lstm.weight_hh_l0.grad.sum())

gru = ZeroStateGRU(3, 2, num_layers=2)
out, h = gru(x.transpose(0, 1))
print(out.shape, h.shape, out[-1])

emb = ScaledEmbedding(10, 4)
print(emb, emb(torch.tensor([1, 2])))
attn = SelfAttention(4, 2)
print(attn(torch.randn(3, 1, 4)))

act, loss_fn, leaky = ShiftedReLU(), DoubledMSE(), Leaky()
print(act, act(torch.tensor([-1.0, 2.0])))
print(loss_fn, loss_fn(torch.ones(3), torch.zeros(3)))
print(leaky, leaky.negative_slope, leaky(torch.tensor([-1.0, 1.0])))
print(isinstance(act, nn.ReLU), isinstance(act, nn.Tanh), isinstance(loss_fn, nn.MSELoss))
