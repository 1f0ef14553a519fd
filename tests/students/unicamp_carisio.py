"""Port of carisio/IA024_deep_learning_nlp, "2 - auto-atencao e encoding posicional/notebook/[IA24_Aula2]_Bengio_com_
mecanismo_de_atenção.ipynb" (commit b9ce7b3): AutoAtencao, a student's solution (1st semester 2024) of Unicamp's IA024
(FEEC, "Redes Neurais Profundas para Processamento de Linguagem Natural"), the exercise "Modelo de Linguagem com
auto-atenção" (the previous exercise's Bengio language model with a self-attention layer of the students' own, with
the projections WQ, WK, WV and WO, before its MLP).

Ports multi_head_attention (AutoAtencao.forward: the student's only attention layer; the next exercise's multi-head
layer in "3 - gpt-2" is, in his words, all taken from Karpathy's video, and is not ported).

Conventions kept: AutoAtencao(m) holds four (m, m) parameters WQ, WK, WV and WO and its forward(x) computes `Q =
torch.matmul(x, self.WQ)` (likewise K and V), `qkt = torch.bmm(Q, K.transpose(1, 2)) / math.sqrt(m)` (torch.bmm: 3-D
input only; one attention over the full width, there are no heads; scaled by the notebook's global m, the embedding
width), `torch.softmax(qkt, dim=2)`, `qkv = torch.bmm(qkt_softmax, V)` and returns `torch.matmul(qkv, self.WO)`. The
layer has no mask argument and builds none (the exercise's model reads the whole context).

Left out: the xavier initialisation. Added for the contract only: m is X.shape[-1] (the global embedding width the
notebook's model feeds the layer), WQ, WK, WV and WO are W_Q, W_K, W_V and W_O (used as x @ W, as the student does),
and num_heads and `mask` are never read.
"""

import math

import numpy as np


def _bmm(a, b):  # torch.bmm: two 3-D tensors with the same batch
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError("batch1 and batch2 must be 3D tensors")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(f"bmm: shapes {a.shape} and {b.shape} cannot be multiplied")
    return a @ b


def _softmax(x, axis):  # torch.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    m = X.shape[-1]  # the notebook's global m (embedding width)
    Q = X @ W_Q
    K = X @ W_K
    V = X @ W_V

    qkt = _bmm(Q, np.swapaxes(K, 1, 2)) / math.sqrt(m)
    qkt_softmax = _softmax(qkt, axis=2)
    qkv = _bmm(qkt_softmax, V)

    return qkv @ W_O
