"""Port of EltonCN/IA024, "04-MáscaraCausal/Aula 3_4 - Exercício Modelo de Linguagem com auto atenção e máscara
causal.ipynb" (commit b26d32a): MultiHeadAttention, a student's solution (1st semester 2024) of Unicamp's IA024 (FEEC,
"Redes Neurais Profundas para Processamento de Linguagem Natural"), the exercise "Modelo de Linguagem com auto-atenção
e máscara causal" (a decoder-only transformer language model trained on Machado de Assis: the students write their own
masked multi-head self-attention; the student checks his layer against torch.nn.MultiheadAttention(bias=False,
batch_first=True)).

Ports multi_head_attention (MultiHeadAttention.forward).

Conventions kept: MultiHeadAttention(embed_dim, num_heads) sets `self.head_dim = embed_dim // num_heads` and raises
ValueError when `self.head_dim * num_heads != embed_dim`; its weights wQ, wK, wV and w0 are all (embed_dim, embed_dim)
and `self.dk_root = torch.sqrt(torch.tensor(self.head_dim, dtype=torch.float32))`. forward(query, key, value,
is_causal=False) raises ValueError unless `query.shape[2] == self.embed_dim` (3-D input only), reads `batch_size =
query.shape[0]` and `context_size = query.shape[1]`, projects `Q = query @ self.wQ.T` (likewise K and V), splits the
heads with `Q.transpose(0, 1).reshape(context_size, batch_size * self.num_heads, self.head_dim).transpose(0, 1)` (for
Q, K AND V: every head is head_dim = embed_dim // num_heads wide), computes `scores = Q @ K.transpose(-2, -1)`, `scores
/= self.dk_root`, and with is_causal adds a bias that is -inf above the diagonal of a (context_size, context_size)
matrix (`attention_bias[mask] = -torch.inf` with `mask = ~tril(ones)`), then `probs = torch.softmax(scores, dim=-1)`,
`E = probs @ V`, merges the heads with `E.reshape(batch_size, self.num_heads, context_size, self.head_dim)`,
`E.transpose(-3, -2)`, `E.reshape(batch_size, context_size, self.embed_dim)` and returns `E @ self.w0.T`. The layer has
no mask argument: the notebook's TransformDecoderBlock calls it with is_causal=True, the student's test both ways.

Left out: the float32 dk_root (its rounding is far below the tolerance), the initialisation, dropout (outside the
layer). Added for the contract only: embed_dim is X.shape[-1], query = key = value = X (self-attention, as the decoder
block calls it), wQ, wK, wV and w0 are W_Q.T, W_K.T, W_V.T and W_O.T (so x @ w.T is x @ W), and is_causal is `mask is
not None`: given a mask, the causal layer runs (the mask's entries are never read), without one the unmasked layer.
"""

import numpy as np


def _softmax(x, axis):  # torch.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(f"embed_dim must be divisible by num_heads ({embed_dim}/{num_heads} is not integer).")
    query = key = value = X
    is_causal = mask is not None

    if query.shape[2] != embed_dim:
        raise ValueError(f"Inputs must have embed dimension of {embed_dim} ({query.shape[2]} != {embed_dim})")
    batch_size = query.shape[0]
    context_size = query.shape[1]

    Q = query @ W_Q
    K = key @ W_K
    V = value @ W_V

    def split(M):
        return np.swapaxes(np.swapaxes(M, 0, 1).reshape(context_size, batch_size * num_heads, head_dim), 0, 1)

    Q, K, V = split(Q), split(K), split(V)

    scores = Q @ np.swapaxes(K, -2, -1)
    scores = scores / np.sqrt(head_dim)

    if is_causal:
        causal = ~np.tril(np.ones((context_size, context_size), dtype=bool))
        attention_bias = np.zeros((context_size, context_size))
        attention_bias[causal] = -np.inf
        scores = scores + attention_bias

    probs = _softmax(scores, axis=-1)
    E = probs @ V

    E = E.reshape(batch_size, num_heads, context_size, head_dim)
    E = np.swapaxes(E, -3, -2)
    E = E.reshape(batch_size, context_size, embed_dim)

    return E @ W_O
