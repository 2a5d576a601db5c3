"""The small PyTorch functions of the drift corpus, traced lazily by torch_xla."""

import torch


def mlp(x, w, b):
    """A matmul, a bias, a ReLU and a reduction."""
    return torch.relu(x @ w + b).sum(dim=-1)


def softmax(x):
    """Reductions and elementwise work."""
    return torch.softmax(x, dim=-1)


def args(device):
    torch.manual_seed(0)
    return {
        "mlp": (torch.randn(8, 16).to(device), torch.randn(16, 32).to(device), torch.randn(32).to(device)),
        "softmax": (torch.randn(8, 128).to(device),),
    }


FUNCTIONS = {"mlp": mlp, "softmax": softmax}
