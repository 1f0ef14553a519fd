"""Port of ChaosAdmStudent/llm_from_scratch, attention/multihead_attention.py (commit 2bc7dc0): MultiHeadAttention_V2,
a student's own multi-head attention written while working through Sebastian Raschka's "Build a Large Language Model
(From Scratch)", chapter 3 (with the student's own names, input assertions and a KV-cache extension of their own).

Ports multi_head_attention only.

Conventions kept: the constructor `MultiHeadAttention_V2(inp_emb_dim, context_dim, context_length, dropout,
num_heads=4, qkv_bias=False)` asserts `context_dim % num_heads == 0`, sets `self.head_dim = context_dim // num_heads`,
builds `W_query`, `W_key` AND `W_value` as `nn.Linear(inp_emb_dim, context_dim)` (queries, keys and values all
context_dim wide), `self.proj_out = nn.Linear(context_dim, context_dim)` and the buffer `torch.triu(torch.ones(
context_length, context_length), diagonal=1)`. forward(inputs) asserts `len(inputs.shape) == 3` ("Input must be of
shape (num_batches, num_tokens, token_dimensions)") and `inputs.shape[-1] == self.inp_emb_dim`, reads `B, num_tokens, _
= inputs.shape`, views K, Q and V as `(B, num_tokens, self.num_heads, self.head_dim)` (a value width other than
context_dim cannot be viewed so), transposes to (B, H, N, head_dim), `attention_scores = Q @ K.transpose(2,3)`, and
(the cache being off) `attention_scores.masked_fill_(self.mask.bool()[:num_tokens, :num_tokens], -torch.inf)`: always
causal (forward has no mask argument), then `torch.softmax(attention_scores/K.shape[-1] ** 0.5, dim=-1)`, `Z =
attention_weights @ V`, `Z.transpose(1,2).contiguous()`, `Z.view(B, num_tokens, self.context_dim)` and proj_out.
Left out: dropout (off at evaluation), the Linear layers' biases, the KV cache (`kv_cache_enabled` is False unless set
by the student's generation code) and the `debug` outputs. Added for the contract only: inp_emb_dim = X.shape[-1],
context_dim = W_Q.shape[1] (the width of the projections), context_length = 1024 (the file's exercise 3.3, GPT-2's
context), W_query, W_key, W_value and proj_out are W_Q, W_K, W_V and W_O, and a `mask` parameter that is never read.
"""

import numpy as np

CONTEXT_LENGTH = 1024  # the file's exercise 3.3: context_length = 1024


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    inp_emb_dim, context_dim = X.shape[-1], W_Q.shape[1]
    assert context_dim % num_heads == 0, "Required context_dim should be divisible by num_heads"
    head_dim = context_dim // num_heads
    causal = np.triu(np.ones((CONTEXT_LENGTH, CONTEXT_LENGTH)), k=1)

    assert len(X.shape) == 3, "Input must be of shape (num_batches, num_tokens, token_dimensions)"
    assert X.shape[-1] == inp_emb_dim, "Input hidden dimension must be equal to inp_emb_dim passed into MHA!"
    B, num_tokens, _ = X.shape
    K = X @ W_K
    Q = X @ W_Q
    V = X @ W_V
    K = K.reshape(B, num_tokens, num_heads, head_dim)
    Q = Q.reshape(B, num_tokens, num_heads, head_dim)
    V = V.reshape(B, num_tokens, num_heads, head_dim)
    K, Q, V = (np.swapaxes(t, 1, 2) for t in (K, Q, V))

    attention_scores = Q @ np.swapaxes(K, 2, 3)
    attention_scores = np.where(causal.astype(bool)[:num_tokens, :num_tokens], -np.inf, attention_scores)
    scaled = attention_scores / K.shape[-1] ** 0.5
    E = np.exp(scaled - np.max(scaled, axis=-1, keepdims=True))
    attention_weights = E / np.sum(E, axis=-1, keepdims=True)

    Z = attention_weights @ V
    Z = np.swapaxes(Z, 1, 2)
    Z = Z.reshape(B, num_tokens, context_dim)
    return Z @ W_O
