"""Port of johntr1/dat450-ml-for-nlp, a2-john/transformerlib.py (commit 0ed3099): A2Attention (__init__,
_reshape_to_heads, _merge_heads and forward), a student's solution of Chalmers University of Technology / University of
Gothenburg DAT450/DIT247 Machine Learning for Natural Language Processing, autumn 2025, assignment 2 (an OLMo-2-style
Transformer language model; the course gives the RoPE code, apply_rotary_pos_emb, rotate_half and A2RotaryEmbedding,
"copied and simplified from HuggingFace", and the students write the attention layer).

Ports multi_head_attention (A2Attention.forward, with the course's RoPE that the student's forward calls).

Conventions kept: __init__ reads `self.hidden_size = config.hidden_size`, `assert self.hidden_size % self.num_heads ==
0`, `self.head_dim = self.hidden_size // self.num_heads` (queries', keys' AND values' heads all hidden_size // heads
wide), square `nn.Linear(self.hidden_size, self.hidden_size, bias=False)` projections and `self.q_norm =
nn.RMSNorm(self.hidden_size, eps=config.rms_norm_eps)` (and k_norm: weight ones; torch checks that the last axis is
hidden_size). forward(hidden_states, rope_rotations) has no mask argument: `q = self.q_norm(q)`, `k = self.k_norm(k)`
on the full-width projections (before the heads are split), `_reshape_to_heads`: `batch_size, seq_length, dim =
x.shape` (3-D only) and `x.view(batch_size, seq_length, heads, head_dim).transpose(1, 2)`, `q, k =
apply_rotary_pos_emb(q, k, rope_rotations, unsqueeze_dim=1)` (the course's RoPE: `inv_freq = 1.0 / (rope_theta **
(torch.arange(0, dim, 2) / dim))` in float32 with dim = hidden_size // num_attention_heads, positions
`torch.arange(0, x.shape[1])`, `emb = torch.cat((freqs, freqs), dim=-1)` and `rotate_half` (coordinate i paired with
i + dim/2); it asserts `q.shape[3] == cos.shape[2]`, which fails for an odd head width),
`F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=True)` (scale 1/sqrt(head_dim),
always causal), `_merge_heads`: `x.transpose(1, 2).reshape(batch_size, seq_length, heads * head_dim)`,
`self.W_o(attn_output)`.

Left out: nothing else runs (no dropout, no biases). Added for the contract only: multi_head_attention is
A2Attention(config) with config.hidden_size = X.shape[-1] and config.num_attention_heads = num_heads, rope_theta =
100000.0 and rms_norm_eps = 1e-6 (the student's a2-john/train.py A2ModelConfig), run on X with the rotations
A2RotaryEmbedding(config)(X) (the transformer passes its input_ids, whose axis 1 is the tokens too); W_q, W_k, W_v and
W_o are W_Q, W_K, W_V and W_O (x @ W, not loaded with a shape check); the contract's mask is never read.
"""

import numpy as np

ROPE_THETA = 100000.0  # a2-john/train.py: A2ModelConfig(..., rope_theta=100000.0, rms_norm_eps=1e-6)
RMS_NORM_EPS = 1e-6


def _rotary_emb(hidden_size, num_attention_heads, rope_theta, x):  # the course's A2RotaryEmbedding(config)(x)
    head_dim = hidden_size // num_attention_heads
    dim = int(head_dim * 1.0)
    inv_freq = (1.0 / (rope_theta ** (np.arange(0, dim, 2).astype(np.float32) / dim))).astype(np.float32)
    position_ids = np.arange(0, x.shape[1]).astype(np.float32)
    freqs = (position_ids[:, None] * inv_freq[None, :])[None]  # (1, N, dim/2), float32
    emb = np.concatenate((freqs, freqs), axis=-1)
    return np.cos(emb), np.sin(emb)


def _rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return np.concatenate((-x2, x1), axis=-1)


def _apply_rotary_pos_emb(q, k, rope_rotations, unsqueeze_dim=1):  # the course's, asserts included
    assert q.shape == k.shape
    assert len(q.shape) == 4
    cos, sin = rope_rotations
    assert q.shape[2] == cos.shape[1]
    assert q.shape[3] == cos.shape[2]
    cos = np.expand_dims(cos, unsqueeze_dim)
    sin = np.expand_dims(sin, unsqueeze_dim)
    return (q * cos) + (_rotate_half(q) * sin), (k * cos) + (_rotate_half(k) * sin)


def _rms_norm(x, normalized_shape, eps):  # nn.RMSNorm(normalized_shape, eps=eps), weight ones
    if x.shape[-1:] != (normalized_shape,):
        raise RuntimeError(f"Given normalized_shape=[{normalized_shape}], expected input with shape [*, "
                           f"{normalized_shape}], but got input of size{list(x.shape)}")
    return x / np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)


def _sdpa_causal(q, k, v):  # F.scaled_dot_product_attention(q, k, v, is_causal=True)
    L, S = q.shape[-2], k.shape[-2]
    scores = q @ np.swapaxes(k, -2, -1) * (1.0 / np.sqrt(q.shape[-1]))
    scores = np.where(np.tril(np.ones((L, S), dtype=bool)), scores, -np.inf)
    e = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    return (e / np.sum(e, axis=-1, keepdims=True)) @ v


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    hidden_size = X.shape[-1]  # A2Attention(config).__init__
    assert hidden_size % num_heads == 0
    head_dim = hidden_size // num_heads
    rope_rotations = _rotary_emb(hidden_size, num_heads, ROPE_THETA, X)

    def reshape_to_heads(x):
        batch_size, seq_length, dim = x.shape  # noqa: RUF059
        return np.swapaxes(x.reshape(batch_size, seq_length, num_heads, head_dim), 1, 2)

    def merge_heads(x):
        batch_size, heads, seq_length, head_dim = x.shape
        return np.swapaxes(x, 1, 2).reshape(batch_size, seq_length, heads * head_dim)

    hidden_states = X
    q = hidden_states @ W_Q
    k = hidden_states @ W_K
    v = hidden_states @ W_V
    q = _rms_norm(q, hidden_size, RMS_NORM_EPS)
    k = _rms_norm(k, hidden_size, RMS_NORM_EPS)
    q = reshape_to_heads(q)
    k = reshape_to_heads(k)
    v = reshape_to_heads(v)
    q, k = _apply_rotary_pos_emb(q, k, rope_rotations, unsqueeze_dim=1)
    attn_output = _sdpa_causal(q, k, v)
    attn_output = merge_heads(attn_output)
    return attn_output @ W_O
