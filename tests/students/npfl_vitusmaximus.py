"""Port of VitusMaximus/npfl138, labs/10/tagger_transformer.py (commit 10e1e87): Model.SelfAttention.forward, a student
team's solution of Charles University's NPFL138 Deep Learning (Prague, 2025/26; the course NPFL114 renamed),
assignment tagger_transformer (a Pre-LN Transformer encoder for Czech part-of-speech tagging, PyTorch).

Ports multi_head_attention (the course has no separate attention function: SelfAttention.forward does it all).

Conventions kept: W_Q, W_K, W_V and W_O are `torch.nn.Parameter(torch.empty(dim, dim))`; forward computes `Q = inputs
@ self.W_Q` (K, V alike), then `batch_size, max_sentence_len, _ = inputs.shape` (3-D input only) and `Q.reshape(
batch_size, max_sentence_len, self.heads, self.dim // self.heads).permute(0, 2, 1, 3)` (explicit sizes: it raises
unless every projection is heads * (dim // heads) wide); `attention_weights = Q @ K.transpose(-2, -1) / (self.dim //
self.heads) ** 0.5`; the mask is read as the course's (batch_size, max_sentence_len) padding mask (True = valid word):
`attention_weights.masked_fill(~mask[:, None, None, :], -1e9)` (row b masks the keys of sequence b for every query;
out of place, so the mask and the scores broadcast: a contract (N_q, N_k) mask raises unless the batch is N_q or 1;
finite fill: a fully masked row is uniform; no mask: `None[:, None, None, :]` raises), `torch.nn.Softmax(dim=-1)`;
then `attention_weights @ V`, `.permute(0, 2, 1, 3).reshape(batch_size, max_sentence_len, self.dim)` and `@ self.W_O`.

Left out: nothing of the attention layer (the encoder around it is not part of the contract). Added for the contract
only: dim is X.shape[-1] (the constructor's argument, args.we_dim) and heads is num_heads; W_Q, W_K, W_V and W_O are
the layer's parameters; the contract's `mask` is passed as the layer's `mask` argument.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    inputs, dim, heads = X, X.shape[-1], num_heads
    Q = inputs @ W_Q
    K = inputs @ W_K
    V = inputs @ W_V

    batch_size, max_sentence_len, _ = inputs.shape
    Q = np.transpose(Q.reshape(batch_size, max_sentence_len, heads, dim // heads), (0, 2, 1, 3))
    K = np.transpose(K.reshape(batch_size, max_sentence_len, heads, dim // heads), (0, 2, 1, 3))
    V = np.transpose(V.reshape(batch_size, max_sentence_len, heads, dim // heads), (0, 2, 1, 3))

    attention_weights = np.matmul(Q, np.swapaxes(K, -2, -1)) / (dim // heads) ** 0.5

    attention_weights = np.where(~mask[:, None, None, :], -1e9, attention_weights)  # masked_fill, out of place
    E = np.exp(attention_weights - np.max(attention_weights, axis=-1, keepdims=True))
    attention_weights = E / np.sum(E, axis=-1, keepdims=True)

    attention_output = attention_weights @ V
    attention_output = np.transpose(attention_output, (0, 2, 1, 3)).reshape(batch_size, max_sentence_len, dim)
    return attention_output @ W_O
