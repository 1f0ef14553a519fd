"""Port of Decade-qiu/happy-llm, docs/chapter5/code/impl/NanoLlama.py (commit 0ee00b7): RotaryEmbedding (with
rotate_half) and Attention, a learner's own "NanoLlama" for chapter 5 of Datawhale's Happy-LLM (an open online book
and course; chapter 5, "动手搭建大模型", builds a LLaMA-2 model with RoPE and grouped-query attention; the student's
impl/ folder rewrites it with HuggingFace-style RoPE and PyTorch's fused attention).

Ports rope (RotaryEmbedding.forward) and multi_head_attention (Attention.forward, which applies the same RoPE).

Conventions kept: RotaryEmbedding(dim, max_len=1024) builds `inv_freq = 1.0 / (10000 ** (torch.arange(0, dim,
2).float() / dim))` (base 10000 fixed: the class has no base argument), `t = torch.arange(max_len).float()`, `freqs =
torch.outer(t, inv_freq)`, `torch.concat((freqs, freqs), dim=-1).unsqueeze(0).unsqueeze(0)` (a (1, 1, max_len, dim)
table, in float32) and its sin and cos; forward(q, k) reads `sq, sk = q.shape[-2], k.shape[-2]` and returns `(q *
self.cos[:, :, :sq, :]) + (rotate_half(q) * self.sin[:, :, :sq, :])` (and k alike), rotate_half being
`torch.cat((-x2, x1), dim=-1)` of the two halves of the last axis: coordinate i is paired with i + dim/2 (the
GPT-NeoX layout), the positions are always 0..sq-1 (none is passed in), and the (1, 1, sq, dim) table broadcasts a
2-D or 3-D input to 4-D. Attention(args): `self.head_dim = args.dim // args.num_head`, bias-free `nn.Linear(self.dim,
self.num_head * self.head_dim)` for W_q (num_kv_head heads for W_k and W_v) and `nn.Linear(self.num_head *
self.head_dim, args.dim)` for W_o, `self.rope = RotaryEmbedding(self.head_dim, max_len=args.max_seq_len)`;
forward(x, mask=None): `B, S = x.size(0), x.size(1)`, `Q.view(B, S, self.num_head, self.head_dim).permute(0, 2, 1,
3)` (likewise K and V with num_kv_head: explicit sizes, so the input is 3-D and every projection num_head * (dim //
num_head) wide), `Q, K = self.rope(Q, K)`, repeat_kv, then (PyTorch >= 2.0) `F.scaled_dot_product_attention(Q, K, V,
attn_mask=mask, dropout_p=..., is_causal=mask is None)`: scale 1/sqrt(head_dim), a boolean attn_mask is True = may
attend (it must broadcast against the (B, H, N, N) scores: a (B, N, N) mask gets no head axis), and WITHOUT a mask the
attention is causal; `output.permute(0, 2, 1, 3).reshape(B, S, self.num_head * self.head_dim)` and `self.W_o(...)`.

Left out: dropout (0 at evaluation), the slow path for PyTorch < 2.0 (never taken). Added for the contract only: rope
is RotaryEmbedding(x.shape[-1], max_len=512) (ModelConfig's max_seq_len) applied to x (its q output; the contract's
positions and base are never read); multi_head_attention is Attention(ModelConfig(dim=X.shape[-1],
num_head=num_heads, num_kv_head=num_heads, max_seq_len=512)) (the contract's W_K and W_V hold num_heads heads, so
repeat_kv repeats once), its W_q, W_k, W_v and W_o are W_Q, W_K, W_V and W_O (x @ W), called with the contract's mask.
F.scaled_dot_product_attention is written out (a fully masked row gives zero weights and a zero output, as PyTorch's
does).
"""

import numpy as np

MAX_SEQ_LEN = 512  # ModelConfig(max_seq_len=512)


def _rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return np.concatenate((-x2, x1), axis=-1)


def _rotary_tables(dim, max_len):  # RotaryEmbedding.__init__
    inv_freq = (1.0 / (10000 ** (np.arange(0, dim, 2).astype(np.float32) / dim))).astype(np.float32)
    t = np.arange(max_len).astype(np.float32)
    freqs = np.outer(t, inv_freq).astype(np.float32)
    freqs = np.concatenate((freqs, freqs), axis=-1)[None, None, :, :]
    return np.sin(freqs), np.cos(freqs)


def _rotary_forward(q, k, dim, max_len):  # RotaryEmbedding.forward
    sin, cos = _rotary_tables(dim, max_len)
    sq, sk = q.shape[-2], k.shape[-2]
    q_emb = (q * cos[:, :, :sq, :]) + (_rotate_half(q) * sin[:, :, :sq, :])
    k_emb = (k * cos[:, :, :sk, :]) + (_rotate_half(k) * sin[:, :, :sk, :])
    return q_emb, k_emb


def rope(x, positions, base=10000.0):
    x = np.asarray(x)
    q_emb, _ = _rotary_forward(x, x, x.shape[-1], MAX_SEQ_LEN)
    return q_emb


def _repeat_kv(x, n_rep):
    if n_rep == 1:
        return x
    B, H_kv, S, D = x.shape
    x = np.broadcast_to(x[:, :, None, :, :], (B, H_kv, n_rep, S, D))
    return x.reshape(B, H_kv * n_rep, S, D)


def _torch_sdpa(Q, K, V, attn_mask=None, is_causal=False):  # F.scaled_dot_product_attention (no dropout)
    L, S = Q.shape[-2], K.shape[-2]
    scores = np.matmul(Q, np.swapaxes(K, -2, -1)) / np.sqrt(Q.shape[-1])
    if is_causal:
        scores = np.where(np.tril(np.ones((L, S), dtype=bool)), scores, -np.inf)
    if attn_mask is not None:
        attn_mask = np.asarray(attn_mask)
        if np.broadcast_shapes(attn_mask.shape, scores.shape) != scores.shape:  # torch: must broadcast to the scores
            raise RuntimeError(f"attn_mask {attn_mask.shape} does not broadcast to {scores.shape}")
        if attn_mask.dtype == bool:
            scores = np.where(attn_mask, scores, -np.inf)
        else:
            scores = scores + attn_mask
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isneginf(top), 0.0, top)
    E = np.exp(scores - top)
    total = np.sum(E, axis=-1, keepdims=True)
    return np.matmul(E / np.where(total == 0.0, 1.0, total), V)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    dim = X.shape[-1]
    num_head = num_kv_head = num_heads
    assert num_head % num_kv_head == 0, "num_head must be divisible by num_kv_head"
    num_rep = num_head // num_kv_head
    head_dim = dim // num_head

    B, S = X.shape[0], X.shape[1]
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V
    Q = Q.reshape(B, S, num_head, head_dim).transpose(0, 2, 1, 3)
    K = K.reshape(B, S, num_kv_head, head_dim).transpose(0, 2, 1, 3)
    V = V.reshape(B, S, num_kv_head, head_dim).transpose(0, 2, 1, 3)

    Q, K = _rotary_forward(Q, K, head_dim, MAX_SEQ_LEN)

    K = _repeat_kv(K, num_rep)
    V = _repeat_kv(V, num_rep)

    output = _torch_sdpa(Q, K, V, attn_mask=mask, is_causal=mask is None)

    output = output.transpose(0, 2, 1, 3).reshape(B, S, num_head * head_dim)
    return output @ W_O
