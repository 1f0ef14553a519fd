"""Port of DHJKim321/nlu-cw2, seq2seq/models/transformer_helper.py (commit e6b66bb): MultiHeadAttention.forward, a
student's solution of the University of Edinburgh's NLU+ (INFR11157, Natural Language Understanding, Generation and
Machine Translation), coursework 2 of 2024 (question 7: multi-head attention in the course's fairseq-style Transformer
for German-English translation).

Ports multi_head_attention (MultiHeadAttention.forward run as self-attention). The course's __init__ (given code) is
kept: `self.head_embed_size = embed_dim // num_attn_heads`, `self.head_scaling = math.sqrt(self.head_embed_size)`,
`assert self.head_embed_size * self.num_heads == self.embed_dim, "Embed dim must be divisible by num_heads!"`.

Conventions kept: the course's tensors are time-major: forward reads `tgt_time_steps, batch_size, embed_dim =
query.size()` (3-D input only, tokens FIRST, then the batch) and `src_time_steps = key.size(0)`, and returns (T, B,
E). It starts from `attn = torch.zeros(size=(tgt_time_steps, batch_size, embed_dim))` and `attn_weights =
torch.zeros(...)`; projects with q_proj, k_proj, v_proj, `projected_q.transpose(0, 1)` (to batch-first), splits
with `projected_q.reshape(batch_size, tgt_time_steps, self.num_heads, self.head_embed_size)` (and k, v: every head
D // num_heads wide), `.transpose(1, 2)`, folds the heads into the batch with `reshape(batch_size * self.num_heads,
tgt_time_steps, self.head_embed_size)`, `raw_scores = torch.bmm(batched_q, transposed_batched_k)`, `scaled_scores =
raw_scores / self.head_scaling`; the mask is the course's additive attn_mask (a float (T, S) tensor of 0 and -inf):
`attention_mask = attn_mask.unsqueeze(dim=0)` then `scaled_scores += attention_mask` (in place: the mask must
broadcast to the scores' own shape; a boolean mask is added as 0/1); `F.softmax(scaled_scores, dim=2)`;
`attn_weights += unfolded_weights.transpose(0, 1)`; `torch.bmm(batched_softmax_scores, batched_v)`, `reshape(
batch_size, self.num_heads, tgt_time_steps, self.head_embed_size)`, `.transpose(1, 2)`, `reshape(batch_size,
tgt_time_steps, self.embed_dim)`, out_proj, `.transpose(0, 1)` and `attn += transposed_projected_attn` (in place
into the zeros).

Left out: dropout on the weights (p = 0 at evaluation), the key_padding_mask branch (the contract has no padding
mask: None), the nn.Linear biases (zero here: the contract has none). Added for the contract only:
multi_head_attention builds the course's MultiHeadAttention(embed_dim = X.shape[-1], num_heads, self_attention=True),
calls forward(query=X, key=X, value=X, attn_mask=mask) with X as given (not transposed: the student's code reads its
first axis as the tokens), q_proj, k_proj, v_proj and out_proj are W_Q, W_K, W_V and W_O (x @ W, not loaded with a
shape check), and it returns only attn (the contract's multi_head_attention has no weights).
"""

import math

import numpy as np


def _softmax(x, axis):  # F.softmax: an all -inf slice gives -inf - (-inf) = NaN
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim_model = X.shape[-1]  # MultiHeadAttention(embed_dim, num_attn_heads, self_attention=True).__init__
    head_embed_size = embed_dim_model // num_heads
    head_scaling = math.sqrt(head_embed_size)
    assert head_embed_size * num_heads == embed_dim_model, "Embed dim must be divisible by num_heads!"
    query = key = value = X
    attn_mask = None if mask is None else np.asarray(mask)

    tgt_time_steps, batch_size, embed_dim = query.shape
    assert embed_dim_model == embed_dim
    src_time_steps = key.shape[0]
    attn = np.zeros((tgt_time_steps, batch_size, embed_dim))
    attn_weights = np.zeros((num_heads, batch_size, tgt_time_steps, src_time_steps))
    projected_q = query @ W_Q
    projected_k = key @ W_K
    projected_v = value @ W_V
    projected_q = np.swapaxes(projected_q, 0, 1)
    projected_k = np.swapaxes(projected_k, 0, 1)
    projected_v = np.swapaxes(projected_v, 0, 1)
    reshaped_projected_q = projected_q.reshape(batch_size, tgt_time_steps, num_heads, head_embed_size)
    reshaped_projected_k = projected_k.reshape(batch_size, src_time_steps, num_heads, head_embed_size)
    reshaped_projected_v = projected_v.reshape(batch_size, src_time_steps, num_heads, head_embed_size)
    head_projected_q = np.swapaxes(reshaped_projected_q, 1, 2)
    head_projected_k = np.swapaxes(reshaped_projected_k, 1, 2)
    head_projected_v = np.swapaxes(reshaped_projected_v, 1, 2)
    batched_q = head_projected_q.reshape(batch_size * num_heads, tgt_time_steps, head_embed_size)
    batched_k = head_projected_k.reshape(batch_size * num_heads, src_time_steps, head_embed_size)
    batched_v = head_projected_v.reshape(batch_size * num_heads, src_time_steps, head_embed_size)
    transposed_batched_k = np.swapaxes(batched_k, 1, 2)
    raw_scores = batched_q @ transposed_batched_k
    scaled_scores = raw_scores / head_scaling
    if attn_mask is not None:
        attention_mask = attn_mask[None]  # attn_mask.unsqueeze(dim=0)
        scaled_scores += attention_mask  # in place: raises unless the mask broadcasts to the scores' shape
    batched_softmax_scores = _softmax(scaled_scores, axis=2)
    unfolded_weights = batched_softmax_scores.reshape(batch_size, num_heads, tgt_time_steps, src_time_steps)
    attn_weights += np.swapaxes(unfolded_weights, 0, 1)
    batched_attn = batched_softmax_scores @ batched_v
    temp_attn_weights = batched_attn.reshape(batch_size, num_heads, tgt_time_steps, head_embed_size)
    transposed_attn = np.swapaxes(temp_attn_weights, 1, 2)
    concat_attn = transposed_attn.reshape(batch_size, tgt_time_steps, embed_dim_model)
    final_projected_attn = concat_attn @ W_O
    transposed_projected_attn = np.swapaxes(final_projected_attn, 0, 1)
    attn += transposed_projected_attn  # in place into the (T, B, embed_dim) zeros
    return attn
