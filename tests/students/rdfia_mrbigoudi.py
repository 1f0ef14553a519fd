"""Port of MrBigoudi/RDFIA-Labs, Lab3/1_e_Transformers.ipynb (commit 4bcfd3d, November 2023): SelfAttention and
MultiHeadsSelfAttention, a student's solution of Sorbonne Université's RDFIA (Reconnaissance des formes pour l'analyse
et l'interprétation d'images, Master DAC/IMA, Paris), practical 1-e "Transformers" (a small ViT on MNIST, "a
simplified version of the excellent Timm library": the students write PatchEmbed, MLP, SelfAttention (Q3: "the simple
case of one head ... And don't forget a final linear projection at the end!"), MultiHeadsSelfAttention (Q4: "The total
embedding size will be shared equally among all heads"), Block and ViT).

Ports scaled_dot_product_attention (SelfAttention.forward from its q, k and v on) and multi_head_attention
(MultiHeadsSelfAttention.forward).

Conventions kept: SelfAttention.forward reads `B, N, C = x.shape` (3-D only), computes `k_t =
torch.Tensor(np.transpose(k.detach().numpy(), (0,2,1)))` (a numpy transpose of exactly three axes), `attention =
torch.nn.Softmax(dim=0)(torch.matmul(q, k_t))` (no scale at all, and the softmax runs over axis 0, the BATCH axis of
the (B, N_q, N_k) scores: each score is normalised against the same entry of the other sequences; with one sequence
every weight is 1) and `x = torch.matmul(attention, v)`; it has no mask. MultiHeadsSelfAttention(embed_dim,
num_heads) is the course's __init__ (`self.head_dim = embed_dim // num_heads`, `self.scale = self.head_dim ** -0.5`,
`nn.Linear(embed_dim, embed_dim)` for q, k, v and projection); the student's forward reads `B, N, C = x.shape` (3-D
only), `q.reshape(B, N, self.num_heads, self.head_dim)` (likewise k and v: every head embed_dim // num_heads wide),
`q.permute(0, 2, 1, 3)`, `k.permute(0, 2, 3, 1)` (the keys transposed), `v.permute(0, 2, 1, 3)`, `attention =
torch.nn.Softmax(dim=0)(torch.mul(torch.matmul(q, k), self.scale))` (scaled by 1/sqrt(head_dim), but normalised over
axis 0 of the (B, H, N, N) scores, the batch again), `x = torch.matmul(attention, v)`, `x.permute(0,2,1,3)`,
`x.reshape(B, N, C)` (merged into the input's width) and `self.projection(x)`; no mask argument.

Left out: the Linear layers' biases (zero here: the contract has none); the float32 cast of torch.Tensor(...) and
detach(); SelfAttention's final `self.end` Linear (the contract's scaled_dot_product_attention stops at weights @ V:
its projection is the identity here). Added for the contract only: scaled_dot_product_attention(Q, K, V, mask, scale)
is SelfAttention.forward after its projections, with q, k and v the contract's Q, K and V (`B, N, C = x.shape` read
off Q, whose leading axes are x's: the layers keep them), returning (x, attention) (the student returns x; the weights
are its softmax); `mask` and `scale` are accepted and never read. In multi_head_attention embed_dim is X.shape[-1] and
num_heads is num_heads; W_Q, W_K, W_V and W_O are loaded into q, k, v and projection as load_state_dict would
(weight = W.T), whose size check raises unless every weight is (embed_dim, embed_dim); the contract's `mask` is never
read.
"""

import numpy as np


def _softmax(x, axis):  # torch.nn.Softmax(dim=axis): exp(x - max) / sum
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    q, k, v = Q, K, V  # self.Wq(x), self.Wk(x), self.Wv(x)
    _B, _N, _C = q.shape  # x.shape
    k_t = np.transpose(k, (0, 2, 1))  # torch.Tensor(np.transpose(k.detach().numpy(), (0,2,1)))
    attention = _softmax(np.matmul(q, k_t), axis=0)
    x = np.matmul(attention, v)
    return x, attention  # the student returns self.end(x)


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
    head_dim = embed_dim // num_heads  # the course's __init__
    scale = head_dim ** -0.5
    state = _load_state_dict(embed_dim, q=W_Q, k=W_K, v=W_V, projection=W_O)
    x = X
    B, N, C = x.shape
    q = x @ state["q"].T
    k = x @ state["k"].T
    v = x @ state["v"].T
    q = q.reshape(B, N, num_heads, head_dim)
    k = k.reshape(B, N, num_heads, head_dim)
    v = v.reshape(B, N, num_heads, head_dim)
    q = np.transpose(q, (0, 2, 1, 3))
    k = np.transpose(k, (0, 2, 3, 1))  # transposed
    v = np.transpose(v, (0, 2, 1, 3))
    attention = _softmax(np.multiply(np.matmul(q, k), scale), axis=0)
    x = np.matmul(attention, v)
    x = np.transpose(x, (0, 2, 1, 3))
    x = x.reshape(B, N, C)
    return x @ state["projection"].T
