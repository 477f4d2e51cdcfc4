# Neural style transfer in miniature: the image itself is the parameter, features come from a
# fixed random convolution, the loss matches the content's features and the style's Gram
# matrices; the tutorial's closure clamps the image and counts its runs.
import torch
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)

torch.manual_seed(2)
conv_w = torch.randn(4, 3, 3, 3) * 0.3
content = torch.rand(1, 3, 8, 8)
style = torch.rand(1, 3, 8, 8)


def features(img):
    return F.relu(F.conv2d(img, conv_w, padding=1))


def gram(f):
    a, b, c, d = f.size()
    m = f.view(a * b, c * d)
    return (m @ m.t()) / (a * b * c * d)


target_content = features(content).detach()
target_style = gram(features(style)).detach()
input_img = content.clone().requires_grad_(True)
optimizer = torch.optim.LBFGS([input_img])
run = [0]

for outer in range(3):

    def closure():
        with torch.no_grad():
            input_img.clamp_(0, 1)
        optimizer.zero_grad()
        f = features(input_img)
        style_score = 1000.0 * F.mse_loss(gram(f), target_style)
        content_score = F.mse_loss(f, target_content)
        loss = style_score + content_score
        loss.backward()
        run[0] += 1
        return style_score + content_score

    optimizer.step(closure)
    print(f"after {run[0]} runs")

with torch.no_grad():
    input_img.clamp_(0, 1)
print(input_img.shape, f"{input_img.mean().item():.6f}", f"{input_img.min().item():.4f}")
