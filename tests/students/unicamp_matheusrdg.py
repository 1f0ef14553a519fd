"""Port of MatheusRDG/nlp_unicamp_2024,
3_4/Aula_3_4_Exercício_Modelo_de_Linguagem_com_auto_atenção_e_máscara_causal_MH.ipynb (commit cee4c6b): Head and
MultiheadAttention, a student's solution (1st semester 2024, P_IA024A_2024S1) of
Unicamp's IA024 (FEEC, "Redes Neurais Profundas para Processamento de Linguagem Natural"), the exercise "Modelo de
Linguagem com auto-atenção e máscara causal" (the student's README: "Add Karpathy style causal mask to activity 2_3 and
add multi-head attention"; a decoder-only language model trained on Machado de Assis).

Ports multi_head_attention (MultiheadAttention.forward over its Heads).

Conventions kept: the notebook's Block builds `MultiheadAttention(context_size, embedding_dim, head_size, n_head)` with
`head_size = embedding_dim // n_head`, whose n_head `Head(context_size, embedding_dim, head_size)` each have key, value
AND query `nn.Linear(embedding_dim, head_size, bias=False)` (the values' heads are head_size wide too) and a buffer
`self.tril = torch.tril(torch.ones(context_size, context_size))` with the notebook's `context_size = 9`; Head.forward(x)
reads `B, T, C = x.shape` (3-D input only), computes `wei = q @ k.transpose(1, 2) / (k.shape[-1]**0.5)` (scaled by the
head_size), `wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))` (always causal: the head has no mask argument and
no switch; more than 9 tokens raise), `F.softmax(wei, dim=-1)`, `out = wei @ v`; MultiheadAttention.forward(x)
concatenates the heads on the last axis and applies `self.wo = nn.Linear(embedding_dim, embedding_dim)`.

Left out: dropout (off at evaluation; the attention dropout and the unused self.dropout), wo's bias (zero here: the
contract has none). Added for the contract only: embedding_dim is X.shape[-1] and n_head is num_heads (head_size as the
Block computes it), head h's key, query and value layers are columns [h * head_size, (h + 1) * head_size) of W_K, W_Q
and W_V, wo is W_O (x @ W_O for the Linear's x @ weight.T), and the contract's `mask` is never read.
"""

import numpy as np

CONTEXT_SIZE = 9  # the notebook's context_size, the size of each Head's tril buffer


def _softmax(x, axis):  # F.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embedding_dim = X.shape[-1]
    head_size = embedding_dim // num_heads  # Block: head_size = embedding_dim // n_head
    tril = np.tril(np.ones((CONTEXT_SIZE, CONTEXT_SIZE)))

    def head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        _B, T, _C = X.shape
        k = X @ W_K[:, cols]
        q = X @ W_Q[:, cols]
        wei = q @ np.swapaxes(k, 1, 2) / (k.shape[-1] ** 0.5)
        wei = np.where(tril[:T, :T] == 0, -np.inf, wei)  # masked_fill, out of place: mask and scores broadcast
        wei = _softmax(wei, axis=-1)
        v = X @ W_V[:, cols]
        return wei @ v

    out = np.concatenate([head(h) for h in range(num_heads)], axis=-1)
    return out @ W_O
