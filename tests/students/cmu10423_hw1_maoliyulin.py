"""Port of MaoliYulin/GenAI-Practice, hw1/handout/mingpt/model.py (commit 873a7f3): RotaryPositionalEmbeddings and
GroupedQueryAttention, a student's solution of CMU 10-423/10-623 (Generative AI), homework 1 (RoPE and grouped-query
attention added to minGPT).

Conventions kept: RotaryPositionalEmbeddings.forward reads `b, h, t, d = Y.shape` (4-D input only); _build_cache cuts
`mid = self.d // 2` along axis 1, `Y_1 = Y[:, :mid]`, `Y_2 = Y[:, mid:]`, and builds `self.Y_matrix_1 =
torch.cat((Y_1,Y_2),dim=1)` (Y itself) and `self.Y_matrix_2 = torch.cat((-Y_2,Y_1),dim=1)` (the rotate_half partner
taken along axis 1, the heads of (b, h, t, d), not along the last axis: with h <= d/2 it is Y itself, otherwise a
negated roll of the heads); the angles are `j * self.base ** (-2 * (i - 1) / d)` for rows j = 0..t-1 (token j at
position j; the positions are never an argument) and i = 1..d/2, `np.squeeze(np.array(theta_matrix))` (one token, or
d = 2, loses an axis and the concatenation below raises), `.float()` (float32); `theta_1 = torch.cat((out_2, out_2),
dim=1)` of the cosines and `theta_2` of the sines (coordinate i and i + d/2 share an angle: the GPT-NeoX
"rotate_half" tables), expanded to (b, h, t, d); it returns `Y_matrix_1 * theta_1 + Y_matrix_2 * theta_2`.
GroupedQueryAttention.forward reads `b, t, n_embd = x.size()`, takes `head_dim = n_embd // self.q_head` (the model
width over the heads), splits q, k and v with einops `rearrange(q, 'b t (h d) -> b h t d', h=...)` (exactly one batch
axis; a head's width is its projection's width over the heads), repeat_interleaves k and v by q_head // kv_head,
divides the scores by `math.sqrt(head_dim)` (1/sqrt(D // H), not the heads' own width), always applies the causal
buffer `self.bias[:, :, :t, :t]` with masked_fill(-inf) (forward has no mask argument; block_size is 128, the
course's chargpt.py default), F.softmax(dim=-1), `rearrange(y, 'b h q d -> b q (h d)')` and out_proj. Left out:
dropout (off at evaluation), the Linear layers' biases, the memory bookkeeping and the rope branch of the attention
(the contract's multi-head attention has no RoPE; the student builds it with `RotaryPositionalEmbeddings(
d=config.n_embd)`). Added for the contract only: the contract's multi-head attention is the student's
GroupedQueryAttention with n_kv_head = n_query_head = num_heads (the course's Block would run the starter code's
CausalSelfAttention then, whose only student lines are the RoPE ones); q_proj, k_proj, v_proj and out_proj are W_Q,
W_K, W_V and W_O; the contract's mask is never read; rope(x, positions, base) applies a fresh
RotaryPositionalEmbeddings(d=x.shape[-1], base=base) to x (positions are not read).
"""

import math

import numpy as np

BLOCK_SIZE = 128  # the course's chargpt.py: CharDataset's block_size


def _rearrange_heads(M, h):  # einops 'b t (h d) -> b h t d'
    if M.ndim != 3:
        raise ValueError(f"Wrong shape: expected 3 dims. Received {M.ndim}-dim tensor.")
    b, t, width = M.shape
    if width % h:
        raise ValueError(f"Shape mismatch, can't divide axis of length {width} in chunks of {h}")
    return M.reshape(b, t, h, width // h).transpose(0, 2, 1, 3)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    q_head = kv_head = num_heads
    bias = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE))).reshape(1, 1, BLOCK_SIZE, BLOCK_SIZE)

    b, t, n_embd = X.shape  # noqa: RUF059
    q = X @ W_Q
    k = X @ W_K
    v = X @ W_V
    head_dim = n_embd // q_head
    q = _rearrange_heads(q, q_head)
    k = _rearrange_heads(k, kv_head)
    v = _rearrange_heads(v, kv_head)
    repeat_factor = q_head // kv_head
    k = np.repeat(k, repeat_factor, axis=1)
    v = np.repeat(v, repeat_factor, axis=1)
    scale = math.sqrt(head_dim)
    att = np.einsum('bhqd,bhkd->bhqk', q, k) / scale
    att = np.where(bias[:, :, :t, :t] == 0, -np.inf, att)
    E = np.exp(att - np.max(att, axis=-1, keepdims=True))
    att = E / np.sum(E, axis=-1, keepdims=True)
    y = np.einsum('bhqt,bhtd->bhqd', att, v)
    bb, h, qq, d = y.shape
    y = y.transpose(0, 2, 1, 3).reshape(bb, qq, h * d)  # 'b h q d -> b q (h d)'
    return y @ W_O


def rope(x, positions, base=10000.0):
    Y = np.asarray(x)
    self_d = Y.shape[-1]  # RotaryPositionalEmbeddings(d=x.shape[-1], base=base)
    b, h, t, d = Y.shape
    mid = self_d // 2
    Y_1 = Y[:, :mid]
    Y_2 = Y[:, mid:]
    Y_matrix_1 = np.concatenate((Y_1, Y_2), axis=1)
    Y_matrix_2 = np.concatenate((-Y_2, Y_1), axis=1)
    theta_matrix = [[j * base ** (-2 * (i - 1) / d) for i in range(1, int(d / 2) + 1)] for j in range(t)]
    theta_matrix = np.squeeze(np.array(theta_matrix)).astype(np.float32)
    out_1 = np.sin(theta_matrix)
    out_2 = np.cos(theta_matrix)
    theta_1 = np.concatenate((out_2, out_2), axis=1)
    theta_2 = np.concatenate((out_1, out_1), axis=1)
    theta_1 = np.broadcast_to(theta_1[None, None], (b, h, *theta_1.shape))
    theta_2 = np.broadcast_to(theta_2[None, None], (b, h, *theta_2.shape))
    return Y_matrix_1 * theta_1 + Y_matrix_2 * theta_2
