"""Port of AEmanuelli/AMAL_Sorbonne_2024, AMAL/TME/TME10/src/tp10.py (commit 575b6c8): SelfAttentionLayer, a student's
solution of Sorbonne Université's AMAL (Apprentissage MAchine avancé: advanced machine learning / deep learning, Master
DAC, taught in French), TME 10 "self-attention" (sentiment classification of IMDB reviews with GloVe embeddings and a
stack of self-attention layers written by hand, then residual connections, positional encodings and a CLS token; the
course gives the data code, tp10.py's FolderText and get_imdb_data, and the students write the models).

Ports scaled_dot_product_attention (the lines of SelfAttentionLayer.forward after the projections) and
multi_head_attention (SelfAttentionLayer.forward).

Conventions kept: SelfAttentionLayer(emb_size, hidden_size) builds `self.query`, `self.key` and `self.value` as
`nn.Linear(emb_size, hidden_size)` (one head; the keys, queries AND values are hidden_size wide) and no output layer;
forward(x, mask=None) computes `q = self.query(x)`, `k = self.key(x)`, `v = self.value(x)`, `attention_scores =
torch.bmm(q, k.transpose(1, 2)) / math.sqrt(hidden_size)` (torch.bmm: exactly 3-D (B, N, d) operands with the same
batch; and `hidden_size` is not the layer's but the script's module-level global `hidden_size = 128`, so the scale is
1/sqrt(128) whatever the widths), `attention_scores.masked_fill(mask == 0, -1e9)` when a mask is given (0/False =
masked, a finite fill), `F.softmax(attention_scores, dim=-1)` and `torch.bmm(attention_weights, v)`, which it returns
(no output projection).

Left out: the Linear layers' biases (zero here: the contract has none), the classifier around the layers
(AttentionBasedModel: three layers, the mean over tokens, a Linear), the training script. Added for the contract only:
scaled_dot_product_attention(Q, K, V, mask, scale) runs the forward's lines from q, k and v on (Q, K, V), returns
(out, weights) (the student returns the output; the weights are its softmax) and takes a `scale` parameter (never
read); in multi_head_attention emb_size is X.shape[-1] and hidden_size is W_Q.shape[-1] (all of W_Q's columns: the
student's one head; num_heads is never read), W_Q, W_K and W_V are loaded into the three Linear(emb_size, hidden_size)
layers (a W_K or W_V of another shape raises, as load_state_dict does), and W_O is never read.
"""

import math

import numpy as np

hidden_size = 128  # tp10.py's module-level `hidden_size = 128`, which forward reads


def _torch_transpose(x, dim0, dim1):  # torch.transpose: both dims must exist
    if max(dim0, dim1) >= x.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-x.ndim}, {x.ndim - 1}], but got "
                         f"{max(dim0, dim1)})")
    return np.swapaxes(x, dim0, dim1)


def _bmm(a, b):  # torch.bmm: two 3-D tensors with the same batch, no broadcasting
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor, got {a.ndim}D and {b.ndim}D")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, "
                           f"{a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    return a @ b


def _softmax(x, axis):  # F.softmax: an all -inf slice gives NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _attend(q, k, v, mask):  # SelfAttentionLayer.forward after the projections
    attention_scores = _bmm(q, _torch_transpose(k, 1, 2)) / math.sqrt(hidden_size)
    if mask is not None:
        attention_scores = np.where(np.asarray(mask) == 0, -1e9, attention_scores)  # masked_fill(mask == 0, -1e9)
    attention_weights = _softmax(attention_scores, -1)
    weighted = _bmm(attention_weights, v)
    return weighted, attention_weights


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _attend(Q, K, V, mask)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    emb_size, layer_hidden = X.shape[-1], W_Q.shape[-1]
    for name, W in (("query", W_Q), ("key", W_K), ("value", W_V)):
        if W.shape != (emb_size, layer_hidden):  # load_state_dict into nn.Linear(emb_size, hidden_size)
            raise RuntimeError(f"size mismatch for {name}.weight: copying a param with shape {W.T.shape}, the shape "
                               f"in current model is {(layer_hidden, emb_size)}")
    q, k, v = X @ W_Q, X @ W_K, X @ W_V
    weighted, _ = _attend(q, k, v, mask)
    return weighted
