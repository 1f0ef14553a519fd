"""Port of moms2700/Computer-Vision-, 1_e_Transformers.ipynb (commit e545b2c, September 2025): SelfAttention and
MultiHeadsSelfAttention, a student's solution of Sorbonne Université's RDFIA (Reconnaissance des formes pour l'analyse
et l'interprétation d'images, Master DAC/IMA, Paris), practical 1-e "Transformers" (a small ViT on MNIST, "a
simplified version of the excellent Timm library": the students write PatchEmbed, MLP, SelfAttention (Q3: "the simple
case of one head ... And don't forget a final linear projection at the end!"), MultiHeadsSelfAttention (Q4: "The total
embedding size will be shared equally among all heads"), Block and ViT).

Ports scaled_dot_product_attention (SelfAttention.forward from its q, k and v on) and multi_head_attention
(MultiHeadsSelfAttention.forward).

Conventions kept: SelfAttention(embed_dim) builds `nn.Linear(embed_dim, embed_dim)` layers query, key, value and
projection; its forward reads `B, N, C = x.shape` (3-D only), computes `attention = F.softmax(torch.matmul(q,
k.transpose(-2, -1)) / (C ** 0.5), dim=-1)` (C, x's width, is the queries' width: the layers keep it) and `x =
self.projection(torch.matmul(attention, v))`; it has no mask. MultiHeadsSelfAttention(embed_dim, num_heads) is the
course's __init__ (`head_dim = embed_dim // num_heads`, `self.scale = head_dim ** -0.5`, `nn.Linear(embed_dim,
embed_dim)` for q, k, v and projection); the student's forward reads `B, N, C = x.shape` (3-D only), `head_dim = C //
self.num_heads`, `q.view(B, N, self.num_heads, head_dim).permute(0, 2, 1, 3)` (likewise k and v: every head C //
num_heads wide, values too), `F.softmax(torch.matmul(q, k.transpose(-2, -1)) * self.scale, dim=-1)`,
`torch.matmul(attention, v)`, `attn_output.permute(0, 2, 1, 3).reshape(B, N, C)` (merged into the input's width) and
`self.projection(attn_output)`; no mask argument. (spencer57721/RDFIA and srsrb/RDFIA, two more students of the same
practical, behave exactly as this port and were left out.)

Left out: the Linear layers' biases (zero here: the contract has none); SelfAttention's final `self.projection` Linear
(the contract's scaled_dot_product_attention stops at weights @ V: its projection is the identity here). Added for the
contract only: scaled_dot_product_attention(Q, K, V, mask, scale) is SelfAttention.forward after its projections, with
q, k and v the contract's Q, K and V (`B, N, C = x.shape` read off Q, whose leading axes and width are x's: the layers
keep them), returning (x, attention) (the student returns the projected x; the weights are its softmax); `mask` and
`scale` are accepted and never read. In multi_head_attention embed_dim is X.shape[-1] and num_heads is num_heads; W_Q,
W_K, W_V and W_O are loaded into q, k, v and projection as load_state_dict would (weight = W.T), whose size check
raises unless every weight is (embed_dim, embed_dim); the contract's `mask` is never read.
"""

import numpy as np


def _softmax_last(x):  # F.softmax(x, dim=-1): exp(x - max) / sum
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    q, k, v = Q, K, V  # self.query(x), self.key(x), self.value(x)
    _B, _N, C = q.shape  # x.shape
    attention = _softmax_last(np.matmul(q, np.swapaxes(k, -2, -1)) / (C ** 0.5))
    x = np.matmul(attention, v)  # the student returns self.projection(...) of it
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
    scale = (embed_dim // num_heads) ** -0.5  # the course's __init__
    state = _load_state_dict(embed_dim, q=W_Q, k=W_K, v=W_V, projection=W_O)
    x = X
    B, N, C = x.shape
    q = x @ state["q"].T
    k = x @ state["k"].T
    v = x @ state["v"].T
    head_dim = C // num_heads
    q = np.transpose(q.reshape(B, N, num_heads, head_dim), (0, 2, 1, 3))
    k = np.transpose(k.reshape(B, N, num_heads, head_dim), (0, 2, 1, 3))
    v = np.transpose(v.reshape(B, N, num_heads, head_dim), (0, 2, 1, 3))
    attention = _softmax_last(np.matmul(q, np.swapaxes(k, -2, -1)) * scale)
    attn_output = np.matmul(attention, v)
    attn_output = np.transpose(attn_output, (0, 2, 1, 3)).reshape(B, N, C)
    return attn_output @ state["projection"].T
