"""Port of CecileGiang/AMAL, "TME 10/src/tp10.py" (commit 0c8b717, January 2022): Attention1 ("attention simple"), a
pair of students' solution (Cécile Giang and her partner: the repository's reports are "[AMAL]_TME10_GIANG_KHALFAT")
of Sorbonne Université's AMAL (Apprentissage MAchine avancé, Master DAC, taught in French), TME 10 "self-attention"
(sentiment classification of IMDB reviews with GloVe embeddings and a stack of L = 3 self-attention layers written by
hand, then residual connections, positional encodings and a CLS token; the course gives the data code).

Ports scaled_dot_product_attention (the lines of Attention1.forward after the projections) and multi_head_attention
(Attention1.forward).

Conventions kept: Attention1(emb_size) builds `self.Q`, `self.K` and `self.V` as `nn.Linear(emb_size, emb_size)` (one
head, square), the output layer `self.final = nn.Linear(emb_size, emb_size)`, `self.softmax = nn.Softmax(dim = 1)`
and `self.layer_norm = nn.LayerNorm(emb_size)`; forward(x) (no mask argument) computes `x_ = self.layer_norm(x)` (the
INPUT is layer-normalised, weight 1, bias 0, eps 1e-5, before the projections), `att = (torch.matmul(self.Q(x_),
torch.permute(self.K(x_), (0, 2, 1)))) / np.sqrt(self.emb_size)` (torch.permute with three axes: exactly 3-D (B, N, d)
input; the scale is 1/sqrt(emb_size), the layer's width), `att = self.softmax(att)` (over axis 1 of the (B, N_q, N_k)
scores: over the queries, each key's column sums to 1), `out = torch.matmul(att, self.V(x_))` and returns
`self.final(out)`.

Left out: the Linear layers' biases (zero here: the contract has none), the ReLU that SelfAttention's nn.Sequential puts
after each layer and the classifier around them (the mean over tokens, a Linear), Attention2 (the residual variant,
`self.final(out + x_)`), the training script. Added for the contract only: scaled_dot_product_attention(Q, K, V, mask,
scale) runs the forward's lines from the projections on (Q, K, V) with emb_size = Q.shape[-1] (the width of the
layer's queries, keys and values alike), returns (out, weights) (weights = the softmax) and takes `mask` and `scale`
parameters (never read); in multi_head_attention emb_size is X.shape[-1], W_Q, W_K, W_V and W_O are loaded into the
square Linear layers Q, K, V and final (a weight of another shape raises, as load_state_dict does), num_heads and the
contract's `mask` are never read.
"""

import numpy as np


def _softmax(x, axis):  # nn.Softmax: an all -inf slice gives NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _layer_norm(x, eps=1e-5):  # nn.LayerNorm(emb_size): weight 1, bias 0
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def _attend(q, k, v, emb_size):
    att = (q @ np.transpose(k, (0, 2, 1))) / np.sqrt(emb_size)  # torch.permute(..., (0, 2, 1)): 3-D only
    att = _softmax(att, 1)  # self.softmax = nn.Softmax(dim = 1)
    return att @ v, att


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _attend(Q, K, V, Q.shape[-1])


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    emb_size = X.shape[-1]
    for name, W in (("Q", W_Q), ("K", W_K), ("V", W_V), ("final", W_O)):
        if W.shape != (emb_size, emb_size):  # load_state_dict into nn.Linear(emb_size, emb_size)
            raise RuntimeError(f"size mismatch for {name}.weight: copying a param with shape {W.T.shape}, the shape "
                               f"in current model is {(emb_size, emb_size)}")
    x_ = _layer_norm(X)
    out, _ = _attend(x_ @ W_Q, x_ @ W_K, x_ @ W_V, emb_size)
    return out @ W_O  # self.final
