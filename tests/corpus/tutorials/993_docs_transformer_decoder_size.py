# The docs' TransformerDecoder example at its full size: six layers of d_model 512 (25 million
# parameters, 100 MB of float32), one forward pass over a small batch.
import torch
import torch.nn as nn

torch.manual_seed(0)
decoder_layer = nn.TransformerDecoderLayer(d_model=512, nhead=8)
transformer_decoder = nn.TransformerDecoder(decoder_layer, num_layers=6)
print(sum(p.numel() for p in transformer_decoder.parameters()))
memory = torch.rand(10, 32, 512)
tgt = torch.rand(20, 32, 512)
transformer_decoder.eval()
with torch.no_grad():
    out = transformer_decoder(tgt, memory)
print(out.shape)
print(out[0, 0, :4])
print(out.mean().item(), out.std().item())
