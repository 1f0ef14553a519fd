"""Port of enricobottazzi/ng-video-lecture, gpt.py (commit cdeeabf): KVCache and Head.forward's cached path, a student's
own KV cache added to the GPT of Andrej Karpathy's "Neural Networks: Zero to Hero" course (lecture 7, "Let's build GPT:
from scratch, in code, spelled out"), in the student's fork of the course's repository (the rest of gpt.py is the
lecture's code).

Ports KVCache and decode_step.

Conventions kept: the student's KVCache starts with `self.k = self.v = None`, `__len__` is `0 if self.k is None else
self.k.shape[1]`, and `update(k, v)` concatenates along the tokens, `torch.cat((self.k, k), dim=1)` (the first block is
stored as given), returning the full history `self.k, self.v`; Head.forward(x, cache) reads `B,T,C = x.shape`, projects
`k = self.key(x)`, `q = self.query(x)`, `v = self.value(x)`, `k, v = cache.update(k, v)`, then `Tq, Tk = q.shape[1],
k.shape[1]`, `past = Tk - Tq`, `wei = q @ k.transpose(-2,-1) * k.shape[-1]**-0.5` and `wei.masked_fill(self.tril[past:
past+Tq, :Tk] == 0, float('-inf'))` with the buffer `torch.tril(torch.ones(block_size, block_size))`, block_size = 32
(gpt.py's hyperparameters): right while the cache holds at most 32 tokens; past that the slice has no row and 32
columns, and the broadcast against the scores raises. `F.softmax(wei, dim=-1)`, `wei @ v`. The model has no RoPE (a
learned position embedding is added to the token embedding before the blocks, at positions past_len..past_len+T-1).
Left out: dropout (the identity at evaluation). Added for the contract only: decode_step(layer, x, cache, rope_base)
is Head.forward(x, cache) on one token, x viewed as (B, T, C) = (1, 1, D), with layer.key, layer.query and
layer.value as the head's Linear layers, returning the (d_v,) row; `rope_base` is never read; KVCache.append(k, v)
gives a (d,) or (T, d) row block the batch axis of one the student's tensors have, k[None], and calls update; `keys`
and `values` are the cached (1, len, d) tensors' only sequence (an empty (0, 0) array before the first append).
"""

import numpy as np

BLOCK_SIZE = 32  # gpt.py: block_size = 32


class KVCache:
    def __init__(self):
        self.k = self.v = None

    def __len__(self):
        return 0 if self.k is None else self.k.shape[1]

    def update(self, k, v):
        self.k = k if self.k is None else np.concatenate((self.k, k), axis=1)
        self.v = v if self.v is None else np.concatenate((self.v, v), axis=1)
        return self.k, self.v

    def append(self, k, v):  # for the contract: (d,) or (T, d) rows as the student's (1, T, d) blocks
        self.update(np.atleast_2d(k)[None], np.atleast_2d(v)[None])

    @property
    def keys(self):
        return np.zeros((0, 0)) if self.k is None else self.k[0]

    @property
    def values(self):
        return np.zeros((0, 0)) if self.v is None else self.v[0]


def decode_step(layer, x, cache, rope_base=None):
    x = np.asarray(x)[None, None, :]  # (B, T, C) = (1, 1, D)
    _B, _T, _C = x.shape
    k = layer.key(x[0, 0])[None, None, :]
    q = layer.query(x[0, 0])[None, None, :]
    v = layer.value(x[0, 0])[None, None, :]
    if cache is not None:
        k, v = cache.update(k, v)
    Tq, Tk = q.shape[1], k.shape[1]
    past = Tk - Tq
    tril = np.tril(np.ones((BLOCK_SIZE, BLOCK_SIZE)))
    wei = q @ np.swapaxes(k, -2, -1) * k.shape[-1] ** -0.5
    wei = np.where(tril[past:past + Tq, :Tk] == 0, -np.inf, wei)  # masked_fill broadcasts mask and scores
    E = np.exp(wei - np.max(wei, axis=-1, keepdims=True))
    wei = E / np.sum(E, axis=-1, keepdims=True)
    out = wei @ v
    return out[0, 0]
