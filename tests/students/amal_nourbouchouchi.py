"""Port of nour-bouchouchi/M2-AMAL, TME10/src/tp10.py (commit 1a3db93): Self_attention (exercise 1), a student's
solution of Sorbonne Université's AMAL (Apprentissage MAchine avancé, Master DAC, taught in French), TME 10
"self-attention" (sentiment classification of IMDB reviews with GloVe embeddings and a stack of L = 3 self-attention
layers written by hand; exercises 2 to 4 add residual connections with a layer norm, positional encodings and a CLS
token; the course gives the data code and the collate function, which pads the batch and returns each review's length).

Ports scaled_dot_product_attention (the lines of Self_attention.forward after the projections, with its
softmax_masque) and multi_head_attention (Self_attention.forward).

Conventions kept: Self_attention(embed_dim, c=0) builds `self.lin_q`, `self.lin_k` and `self.lin_v` as
`nn.Linear(embed_dim, embed_dim, bias=False)` (one head, square), `self.soft = nn.Softmax(dim=1)`, the output layer
`self.lin = nn.Linear(embed_dim, embed_dim)`, `self.relu = nn.ReLU()`, `self.c = torch.tensor(c)` and
`self._embed_dim = torch.tensor(embed_dim)`; forward(x, l) (l: the reviews' lengths, no mask argument) computes q, k
and v, then `attention = self.softmax_masque(self.c + torch.div(q @ torch.transpose(k, dim0=1, dim1=2),
torch.sqrt(self._embed_dim)), l)` (the scale is 1/sqrt(embed_dim), the layer's width; transpose(dim0=1, dim1=2): a 2-D
input raises, a 4-D one swaps the heads with the tokens), softmax_masque(x, l) builds `mask = torch.arange(x.size(1))[
None, :] >= l[:, None]`, `mask = mask.unsqueeze(2).expand(x.size())` (it masks the QUERY rows i >= l[b] of the scores,
whole rows), sets `x[mask] = float('-inf')` and returns `self.soft(x)`, a softmax over axis 1 (of the (B, N_q, N_k)
scores, over the queries: each key's column sums to 1), and forward returns `self.relu(self.lin(attention @ v))` (a
ReLU after the output layer).

Left out: the output layer's bias (zero here: the contract has none), the classifier around the layers
(Model_attention: the mean over tokens, a Linear and a sigmoid), `.to(device)`, the training script. Added for the
contract only: l, the true length of each of the B sequences (the batch's first axis), is x.size(1), the number of
positions softmax_masque masks over (the contract's inputs have no padding, so it masks nothing);
scaled_dot_product_attention(Q, K, V, mask, scale) runs the forward's lines from q, k and v on (Q, K, V) with embed_dim
= Q.shape[-1] (the width of the layer's queries, keys and values alike), returns (out, weights) (weights = the masked
softmax) and takes `mask` and `scale` parameters (never read); in multi_head_attention embed_dim is X.shape[-1], W_Q,
W_K, W_V and W_O are loaded into the square Linear layers lin_q, lin_k, lin_v and lin (a weight of another shape
raises, as load_state_dict does), num_heads and the contract's `mask` are never read.
"""

import numpy as np

C = 0  # Self_attention(embed_dim, c=0), as Model_attention builds it


def _torch_transpose(x, dim0, dim1):  # torch.transpose: both dims must exist
    if max(dim0, dim1) >= x.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-x.ndim}, {x.ndim - 1}], but got "
                         f"{max(dim0, dim1)})")
    return np.swapaxes(x, dim0, dim1)


def _softmax(x, axis):  # nn.Softmax: an all -inf slice gives NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _softmax_masque(x, lengths):
    mask = np.arange(x.shape[1])[None, :] >= lengths[:, None]
    mask = np.broadcast_to(mask[:, :, None], x.shape)  # unsqueeze(2).expand(x.size())
    x = x.copy()
    x[mask] = -np.inf
    return _softmax(x, 1)  # self.soft = nn.Softmax(dim=1)


def _attend(q, k, v, embed_dim):
    scores = C + (q @ _torch_transpose(k, 1, 2)) / np.sqrt(embed_dim)
    lengths = np.full(scores.shape[0], scores.shape[1], dtype=float)  # l: no token is padding
    attention = _softmax_masque(scores, lengths)
    return attention @ v, attention


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _attend(Q, K, V, Q.shape[-1])


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]
    for name, W in (("lin_q", W_Q), ("lin_k", W_K), ("lin_v", W_V), ("lin", W_O)):
        if W.shape != (embed_dim, embed_dim):  # load_state_dict into nn.Linear(embed_dim, embed_dim)
            raise RuntimeError(f"size mismatch for {name}.weight: copying a param with shape {W.T.shape}, the shape "
                               f"in current model is {(embed_dim, embed_dim)}")
    q, k, v = X @ W_Q, X @ W_K, X @ W_V
    attention, _ = _attend(q, k, v, embed_dim)
    x = attention @ W_O  # self.lin
    return np.maximum(x, 0.0)  # self.relu
