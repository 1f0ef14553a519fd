"""Port of tanner-ducharme/6135-A2, transformer_solution.py (commit d84397d): MultiHeadedAttention
(get_attention_weights, apply_attention, split_heads, merge_heads and forward), a student's solution of Université de
Montréal / Mila IFT6135 Representation Learning, winter 2023, assignment 2 (practical): a Transformer encoder whose
attention takes the course's padding mask, a `torch.LongTensor` of shape `(batch_size, sequence_length)` (1 = token,
0 = padding).

Ports scaled_dot_product_attention (get_attention_weights, then `torch.matmul(attn_score, values)` as in
apply_attention) and multi_head_attention (forward with the student's split_heads, apply_attention and merge_heads).

Conventions kept: get_attention_weights(queries, keys, mask=None) starts with `batch_size, num_heads, sequence_length,
head_size = keys.shape` (4-D keys only: other ranks raise), `keys = keys.transpose(2, 3)`, `interaction_score =
torch.matmul(queries, keys) / np.sqrt(self.head_size)` (the constructor's head_size; no scale argument), then `if mask
is not None: mask = mask.view(batch_size, 1, 1, sequence_length).to(bool)` (the mask read as a (B, N_k) key-padding
mask: view raises unless the mask holds exactly batch_size * N_k entries, e.g. an (N_q, N_k) mask with N_q equal to
the batch size, whose row b then masks the keys of sequence b for every query) and `interaction_score.masked_fill(
mask==0, float("-inf"))`, then `F.softmax(masked_score, dim=3)` (an all -inf row is NaN). apply_attention:
`torch.matmul(attn_score, values)` then merge_heads (`tensor.permute(0, 2, 1, 3)`, `torch.flatten(tensor, 2)`);
split_heads: `batch_size, seq_length, head_dim_prod = tensor.shape` (3-D only), `dim = int(head_dim_prod /
self.num_heads)`, `tensor.reshape(batch_size, seq_length, self.num_heads, dim)`, `.transpose(1, 2)`; forward: `Q =
hidden_states @ self.W_q + self.B_q` (and K, V), split_heads, apply_attention, `attn @ self.W_o + self.B_o`. The
course's encoder blocks build `MultiHeadedAttention(embed_dim//num_heads, num_heads, sequence_length)`, so head_size
is the input width over the heads, D // H.

Left out: the biases B_q, B_k, B_v, B_o (zeros: the student initialises them with torch.zeros, and the contract has
none). Added for the contract only: scaled_dot_product_attention returns (output, weights) and takes a `scale`
parameter (never read); there the module is built for the given queries, head_size = Q.shape[-1]. In
multi_head_attention head_size = X.shape[-1] // num_heads (the course's embed_dim // num_heads) and the student's
parameters W_q, W_k, W_v, W_o are W_Q, W_K, W_V and W_O (set as parameters, not loaded with a shape check); the
contract's mask is passed as forward's mask.
"""

import numpy as np


def _softmax_last(x):  # F.softmax(x, dim=3) on 4-D scores: an all -inf row gives NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _get_attention_weights(queries, keys, mask, head_size):
    batch_size, _num_heads, sequence_length, _head_size = keys.shape  # raises unless keys are 4-D
    keys = np.swapaxes(keys, 2, 3)
    interaction_score = (queries @ keys) / np.sqrt(head_size)
    if mask is not None:
        mask = np.asarray(mask)
        if mask.size != batch_size * sequence_length:  # torch's view
            raise RuntimeError(f"shape '[{batch_size}, 1, 1, {sequence_length}]' is invalid for input of size "
                               f"{mask.size}")
        mask = mask.reshape(batch_size, 1, 1, sequence_length).astype(bool)
        masked_score = np.where(mask == 0, -np.inf, interaction_score)  # masked_fill (out of place)
    else:
        masked_score = interaction_score
    return _softmax_last(masked_score)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    attn_score = _get_attention_weights(Q, K, mask, Q.shape[-1])
    return attn_score @ V, attn_score


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    head_size = X.shape[-1] // num_heads  # MultiHeadedAttention(embed_dim//num_heads, num_heads, sequence_length)

    def split_heads(tensor):
        batch_size, seq_length, head_dim_prod = tensor.shape
        dim = int(head_dim_prod / num_heads)
        tensor_split = tensor.reshape(batch_size, seq_length, num_heads, dim)
        return np.swapaxes(tensor_split, 1, 2)

    def merge_heads(tensor):
        tensor = np.transpose(tensor, (0, 2, 1, 3))
        return tensor.reshape(*tensor.shape[:2], -1)  # torch.flatten(tensor, 2)

    Q = split_heads(X @ W_Q)
    K = split_heads(X @ W_K)
    V = split_heads(X @ W_V)
    attn_score = _get_attention_weights(Q, K, mask, head_size)  # apply_attention
    attn = merge_heads(attn_score @ V)
    return attn @ W_O
