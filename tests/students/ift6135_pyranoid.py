"""Port of py-ranoid/IFT6135_H2023_Programming, assignment2/transformer_solution.py (commit 5b73f6e):
MultiHeadedAttention (get_attention_weights, apply_attention, split_heads, merge_heads and forward), a student's
solution of Université de Montréal / Mila IFT6135 Representation Learning, winter 2023, assignment 2 (practical): a
Transformer encoder whose attention takes the course's padding mask, a `torch.LongTensor` of shape `(batch_size,
sequence_length)` (1 = token, 0 = padding).

Ports scaled_dot_product_attention (get_attention_weights, then `weights @ values` as in apply_attention) and
multi_head_attention (forward with the student's split_heads, apply_attention and merge_heads).

Conventions kept: get_attention_weights(queries, keys, mask=None) computes `scores = queries @
keys.transpose(2,3)/torch.sqrt(head_size)` with `head_size = torch.tensor(self.head_size, ...).float()` (axes 2 and 3
named: 2-D and 3-D inputs raise, with more axes the wrong ones are swapped; the constructor's head_size; no scale
argument), then `if mask is not None: mask = torch.unsqueeze(torch.unsqueeze(mask,dim=1),dim=1)` (the mask read as a
(B, N_k) key-padding mask: row b masks the keys of sequence b for every query) and `scores =
scores.masked_fill_(mask==0, -torch.inf)` (in place, so the mask must broadcast to the scores' own shape: an (N_q, N_k)
mask becomes (N_q, 1, 1, N_k) and raises unless N_q is the batch size or 1), then `torch.softmax(scores, dim=-1)` (an
all -inf row is NaN). apply_attention: `weights @ values`, then merge_heads; split_heads: `batch_size, _ ,
concat_heads = tensor.shape` (3-D only), `dim = int(concat_heads/self.num_heads)`, `output =
torch.zeros(self.num_heads, batch_size, self.sequence_length, dim)`, `for i in range(self.num_heads):output[i] =
tensor[:,:,dim*i:dim*(i+1)]`, `torch.swapaxes(output, 0, 1)`; merge_heads: `head_outs.append(torch.squeeze(tensor[:,i],
dim=1))` for each head (with one token, N = 1, squeeze drops the token axis and leaves (B, dim)) then
`torch.cat(head_outs,dim=2)` (which then raises: a 2-D tensor has no dim 2); forward: `self.Q(hidden_states)` (and K,
V), apply_attention on the split heads, `self.Y(attn_output)`. The course's encoder blocks build
`MultiHeadedAttention(embed_dim//num_heads, num_heads, sequence_length)`, so head_size is the input width over the
heads, D // H.

Left out: the nn.Linear biases (zero here: the contract has none), the `device` argument. Added for the contract only:
scaled_dot_product_attention returns (output, weights) and takes a `scale` parameter (never read); there the module is
built for the given queries, head_size = Q.shape[-1]. In multi_head_attention head_size = X.shape[-1] // num_heads
(the course's embed_dim // num_heads), sequence_length = X.shape[-2] (the module is built for the input's length; the
course's model fixes 1 + 256), and the student's Linear layers Q, K, V, Y are W_Q, W_K, W_V and W_O (set as
parameters, not loaded with a shape check); the contract's mask is passed as forward's mask.
"""

import numpy as np


def _softmax_last(x):  # torch.softmax(x, dim=-1): an all -inf row gives NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _get_attention_weights(queries, keys, mask, head_size):
    if keys.ndim < 4:  # keys.transpose(2,3)
        raise IndexError(f"Dimension out of range (expected to be in range of [-{keys.ndim}, {keys.ndim - 1}], but "
                         "got 3)")
    scores = queries @ np.swapaxes(keys, 2, 3) / np.sqrt(np.float32(head_size))
    if mask is not None:
        mask = np.expand_dims(np.expand_dims(np.asarray(mask), 1), 1)
        if np.broadcast_shapes(mask.shape, scores.shape) != scores.shape:  # masked_fill_ (in place)
            raise RuntimeError(f"output with shape {list(scores.shape)} doesn't match the broadcast shape")
        scores = np.where(mask == 0, -np.inf, scores)
    return _softmax_last(scores)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    weights = _get_attention_weights(Q, K, mask, Q.shape[-1])
    return weights @ V, weights


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = X.shape[-1] // num_heads  # MultiHeadedAttention(embed_dim//num_heads, num_heads, sequence_length)
    sequence_length = X.shape[-2]

    def split_heads(tensor):
        batch_size, _, concat_heads = tensor.shape
        dim = int(concat_heads / num_heads)
        output = np.zeros((num_heads, batch_size, sequence_length, dim))
        for i in range(num_heads):
            output[i] = tensor[:, :, dim * i:dim * (i + 1)]
        return np.swapaxes(output, 0, 1)

    def merge_heads(tensor):
        head_outs = []
        for i in range(num_heads):
            head = tensor[:, i]
            head_outs.append(head[:, 0] if head.shape[1] == 1 else head)  # torch.squeeze(tensor[:,i],dim=1)
        return np.concatenate(head_outs, axis=2)

    weights = _get_attention_weights(split_heads(X @ W_Q), split_heads(X @ W_K), mask, head_size)  # apply_attention
    attn_output = merge_heads(weights @ split_heads(X @ W_V))
    return attn_output @ W_O
