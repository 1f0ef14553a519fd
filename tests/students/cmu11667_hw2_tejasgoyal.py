"""Port of tejas-goyal/11-667_F25_hw2, src/lm/model.py (commit 0270877): MultiHeadAttention (q_kT_v, self_attention,
projection), a student's solution of CMU 11-667 (Large Language Models: Methods and Applications), homework 2.

Conventions kept: `attn_hidden_dim = n_embd // n_head` and `scale_factor = 1 / torch.sqrt(torch.tensor(
attn_hidden_dim))` (each head is scaled by 1/sqrt(D // H), the model width over the heads, not by its own width);
q_kT_v projects and splits with einops `rearrange(q, 'b s (h hd) -> b h s hd', h=self.n_head)` (exactly one batch
axis: the pattern names b and s) and `kT = rearrange(k, 'b h s hd -> b h hd s')`; self_attention builds `s =
q.shape[2]`, `causal_mask = torch.tril(torch.ones(s, s)).bool()` and, with no padding mask, uses it ALWAYS
(`attention_mask` is the course's (B x S) padding mask, and the causal mask applies with or without it), fills
`unmasked_attn_logits.masked_fill(~mask, torch.finfo(q.dtype).min)`, F.softmax(dim=-1), `torch.matmul(attn_weights,
v)` and `rearrange(attn, 'b h s hd -> b s (h hd)')`; projection applies self.proj. Left out: dropout (off at
evaluation) and the Linear layers' biases. Added for the contract only: the projections are W_Q, W_K, W_V and W_O,
n_embd is X.shape[-1] (the constructor's argument); the contract's mask is not the course's padding mask and is never
read.
"""

import numpy as np


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    n_embd = X.shape[-1]
    attn_hidden_dim = n_embd // num_heads
    scale_factor = 1 / np.sqrt(attn_hidden_dim)

    def rearrange(M):  # 'b s (h hd) -> b h s hd'
        if M.ndim != 3:
            raise ValueError(f"Wrong shape: expected 3 dims. Received {M.ndim}-dim tensor.")
        b, s, width = M.shape
        return M.reshape(b, s, num_heads, width // num_heads).transpose(0, 2, 1, 3)

    q, k, v = rearrange(X @ W_Q), rearrange(X @ W_K), rearrange(X @ W_V)
    kT = np.swapaxes(k, 2, 3)
    unmasked_attn_logits = (q @ kT) * scale_factor
    s = q.shape[2]
    causal_mask = np.tril(np.ones((s, s))).astype(bool)
    float_min = np.finfo(q.dtype).min
    attn_logits = np.where(~causal_mask, float_min, unmasked_attn_logits)
    E = np.exp(attn_logits - np.max(attn_logits, axis=-1, keepdims=True))
    attn_weights = E / np.sum(E, axis=-1, keepdims=True)
    attn = attn_weights @ v
    b, h, s, hd = attn.shape
    attn = attn.transpose(0, 2, 1, 3).reshape(b, s, h * hd)  # 'b h s hd -> b s (h hd)'
    return attn @ W_O
