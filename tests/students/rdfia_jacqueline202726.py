"""Port of Jacqueline202726/RDFIA-TP, TP1/1_e_Transformers.ipynb (commit 8e2e37c, December 2024, uploaded by Ruyi Tang):
SelfAttention and MultiHeadsSelfAttention, a student's solution of Sorbonne Université's RDFIA (Reconnaissance des
formes pour l'analyse et l'interprétation d'images, Master DAC/IMA, Paris), practical 1-e "Transformers" (a small ViT on
MNIST, "a simplified version of the excellent Timm library": the students write PatchEmbed, MLP, SelfAttention (Q3: "the
simple case of one head ... And don't forget a final linear projection at the end!"), MultiHeadsSelfAttention (Q4: "The
total embedding size will be shared equally among all heads"), Block and ViT).

Ports scaled_dot_product_attention (SelfAttention.forward from its q, k and v on) and multi_head_attention
(MultiHeadsSelfAttention.forward).

Conventions kept: SelfAttention(embed_dim) sets `self.scale=(embed_dim)**0.5` and bias-free `nn.Linear(embed_dim,
embed_dim)` layers q, k and v (no final projection); its forward reads `B, N, C = x.shape` (3-D only), computes
`attention = q@k.transpose(1,2)/self.scale` (divided by sqrt(embed_dim), the queries' width),
`F.softmax(attention,dim=-1)` and returns `x = attention@v`; it has no mask. MultiHeadsSelfAttention(embed_dim,
num_heads) keeps the course's `head_dim = embed_dim//num_heads` and `self.scale = head_dim ** -0.5` (the factor to
MULTIPLY by), with bias-free q, k and v Linear layers and the course's `self.projection = nn.Linear(embed_dim,
embed_dim)`; forward reads `B, N, C = x.shape` (3-D only), `dk=C//num_heads` and `dv=C//num_heads` (every head C //
num_heads wide, values too), `q.reshape(B,N,num_heads,dk).transpose(1,2)` (likewise k and v), `attention =
q@k.transpose(2,3)/self.scale` (divided by head_dim ** -0.5: the scores are MULTIPLIED by sqrt(head_dim)),
`F.softmax(attention,dim=-1)`, `x = attention@v`, `x=x.transpose(1,2).reshape(B,N,C)` and `return x`: self.projection
is built but never applied; no mask argument.

Left out: the projection's bias (zero here: the contract has none). Added for the contract only:
scaled_dot_product_attention(Q, K, V, mask, scale) is SelfAttention.forward after its projections, with q, k and v the
contract's Q, K and V and embed_dim = Q.shape[-1] (its Linear(embed_dim, embed_dim) layers keep x's width; `B, N, C =
x.shape` read off Q, whose leading axes are x's), returning (x, attention) (the student returns x; the weights are its
softmax); `mask` and `scale` are accepted and never read. In multi_head_attention embed_dim is X.shape[-1] and num_heads
is num_heads; W_Q, W_K, W_V and W_O are loaded into q, k, v and projection as load_state_dict would (weight = W.T),
whose size check raises unless every weight is (embed_dim, embed_dim); the contract's `mask` is never read.
"""

import numpy as np


def _softmax_last(x):  # F.softmax(x, dim=-1): exp(x - max) / sum
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    embed_dim = Q.shape[-1]  # SelfAttention(embed_dim): q = self.q(x) is embed_dim wide
    self_scale = (embed_dim) ** 0.5
    q, k, v = Q, K, V  # self.q(x), self.k(x), self.v(x)
    _B, _N, _C = q.shape  # x.shape
    attention = q @ np.swapaxes(k, 1, 2) / self_scale
    attention = _softmax_last(attention)
    x = attention @ v
    return x, attention


def _load_state_dict(embed_dim, **weights):  # load_state_dict into nn.Linear(embed_dim, embed_dim): a size check
    state = {}
    for name, W in weights.items():
        weight = np.asarray(W).T  # nn.Linear stores (out_features, in_features)
        if weight.shape != (embed_dim, embed_dim):
            raise RuntimeError(f"Error(s) in loading state_dict for MultiHeadsSelfAttention: size mismatch for "
                               f"{name}.weight: copying a param with shape {weight.shape} from checkpoint, the shape "
                               f"in current model is {(embed_dim, embed_dim)}.")
        state[name] = weight
    return state


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    embed_dim = X.shape[-1]
    head_dim = embed_dim // num_heads
    scale = head_dim ** -0.5
    state = _load_state_dict(embed_dim, q=W_Q, k=W_K, v=W_V, projection=W_O)
    x = X
    B, N, C = x.shape
    q = x @ state["q"].T
    k = x @ state["k"].T
    v = x @ state["v"].T
    dk = C // num_heads  # dim of k for each head
    dv = C // num_heads  # dim of v for each head
    q = np.swapaxes(q.reshape(B, N, num_heads, dk), 1, 2)
    k = np.swapaxes(k.reshape(B, N, num_heads, dk), 1, 2)
    v = np.swapaxes(v.reshape(B, N, num_heads, dv), 1, 2)
    attention = q @ np.swapaxes(k, 2, 3) / scale
    attention = _softmax_last(attention)
    x = attention @ v
    x = np.swapaxes(x, 1, 2).reshape(B, N, C)
    return x  # self.projection is never applied
