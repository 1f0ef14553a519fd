"""Port of edumunozsala/NLP-deeplearningai-course, C4_W2_Assignment.ipynb (commit c2a31ec, 2020): the graded
functions DotProductAttention, compute_attention_heads_closure, dot_product_self_attention,
compute_attention_output_closure and CausalAttention, a learner's solution of DeepLearning.AI's Natural Language
Processing Specialization on Coursera, course 4 "Natural Language Processing with Attention Models", week 2 programming
assignment "Transformer Summarizer" (the Trax version of 2020-2022: the learners fill in the "None"s of the graded cells
between START CODE HERE and END CODE HERE; the notebook's check of CausalAttention only prints the model's layers).

Ports scaled_dot_product_attention (DotProductAttention), causal_mask (the mask dot_product_self_attention builds) and
multi_head_attention (CausalAttention, with the two closures and dot_product_self_attention).

Conventions kept: DotProductAttention(query, key, value, mask) keeps the skeleton's `assert query.shape[-1] ==
key.shape[-1] == value.shape[-1], "Embedding dimensions of q, k, v aren't all the same"` (values as wide as the keys),
takes no scale (`depth = query.shape[-1]`, `dots = jnp.matmul(query, jnp.swapaxes(key, -1, -2)) / jnp.sqrt(depth)`), `if
mask is not None: dots = jnp.where(mask, dots, jnp.full_like(dots, -1e9))` (True = keep; a finite fill: a fully masked
row becomes uniform), `logsumexp = trax.fastmath.logsumexp(dots, axis=-1, keepdims=True)`, `dots = jnp.exp(dots -
logsumexp)` and returns `jnp.matmul(dots, value)`. dot_product_self_attention(q, k, v) builds `mask_size = q.shape[-2]`
and `mask = jnp.tril(jnp.ones((1, mask_size, mask_size), dtype=jnp.bool_), k=0)` (square, with a leading axis of 1) and
returns `DotProductAttention(q, k, v, mask)`. compute_attention_heads(x) reads `batch_size = x.shape[0]`, `seqlen =
x.shape[1]`, `jnp.reshape(x, (batch_size, seqlen, n_heads, d_head))`, `jnp.transpose(x, (0, 2, 1, 3))`, `jnp.reshape(x,
(-1, seqlen, d_head))`, but CausalAttention never calls it; compute_attention_output(x) reads `seqlen = x.shape[1]`
(3-D only), `jnp.reshape(x, (-1, n_heads, seqlen, d_head))`, `jnp.transpose(x, (0, 2, 1, 3))` and returns
`jnp.reshape(x, (-1, seqlen, n_heads * d_head))`. CausalAttention(d_feature, n_heads) asserts `d_feature % n_heads ==
0`, `d_head = d_feature // n_heads`, and builds `ComputeAttentionHeads = tl.Fn('AttnHeads',
compute_attention_output_closure(n_heads, d_head), n_out=1)` (the MERGING closure where the skeleton asks for
compute_attention_heads_closure): `tl.Serial(tl.Branch([tl.Dense(d_feature), ComputeAttentionHeads]` for the queries,
keys and values `), tl.Fn('DotProductAttn', dot_product_self_attention, n_out=1), tl.Fn('AttnOutput',
compute_attention_output_closure(n_heads, d_head), n_out=1), tl.Dense(d_feature))`. So each (B, N, H*d) projection is
read as (B, H, N, d), transposed to (B, N, H, d) and flattened back to (B, N, H*d): its entries are scrambled across
tokens and columns (for H > 1), and one attention runs over the full width d_feature (scale 1/sqrt(H*d_k), causal mask
of the N tokens) on the scrambled queries, keys and values, whose output is scrambled once more before the last Dense.
One width d_feature for the three projections and the output layer, and no mask argument (always causal).

Left out: the Dense layers' biases (zero here: the contract has none), float32 arithmetic, the notebook's DecoderBlock,
TransformerLM and training cells. Added for the contract only: scaled_dot_product_attention(Q, K, V, mask, scale) is
DotProductAttention(Q, K, V, mask), returning (out, weights) (the student returns the output; the weights are its
exp(dots - logsumexp)), with `scale` never read; causal_mask(n_q, n_k) is dot_product_self_attention's mask with
mask_size = n_q (n_k has no counterpart); in multi_head_attention d_feature is W_Q.shape[-1] (the width of the query
projection, H*d_k) and n_heads is num_heads, each tl.Dense(d_feature) holds its weight, W_Q, W_K, W_V or W_O (a Dense
layer's weight is (input width, d_feature): a weight of another output width does not fit it and raises), and the
contract's `mask` is never read.
"""

import numpy as np


def _logsumexp(x, axis, keepdims):  # trax.fastmath.logsumexp (jax's, max-shifted)
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    out = np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis=axis)


def _dot_product_attention(query, key, value, mask):  # DotProductAttention, returning the weights too
    assert query.shape[-1] == key.shape[-1] == value.shape[-1], "Embedding dimensions of q, k, v aren't all the same"
    depth = query.shape[-1]
    dots = np.matmul(query, np.swapaxes(key, -1, -2)) / np.sqrt(depth)
    if mask is not None:
        dots = np.where(mask, dots, np.full_like(dots, -1e9))
    logsumexp = _logsumexp(dots, axis=-1, keepdims=True)
    dots = np.exp(dots - logsumexp)
    attention = np.matmul(dots, value)
    return attention, dots


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _dot_product_attention(Q, K, V, mask)


def causal_mask(n_q, n_k=None):
    mask_size = n_q  # dot_product_self_attention: mask_size = q.shape[1]
    return np.tril(np.ones((1, mask_size, mask_size), dtype=np.bool_), k=0)


def _dot_product_self_attention(q, k, v):
    mask_size = q.shape[-2]
    mask = np.tril(np.ones((1, mask_size, mask_size), dtype=np.bool_), k=0)
    attention, _ = _dot_product_attention(q, k, v, mask)
    return attention


def _compute_attention_heads_closure(n_heads, d_head):
    def compute_attention_heads(x):
        batch_size = x.shape[0]
        seqlen = x.shape[1]
        x = np.reshape(x, (batch_size, seqlen, n_heads, d_head))
        x = np.transpose(x, (0, 2, 1, 3))
        x = np.reshape(x, (-1, seqlen, d_head))
        return x

    return compute_attention_heads


def _compute_attention_output_closure(n_heads, d_head):
    def compute_attention_output(x):
        seqlen = x.shape[1]
        x = np.reshape(x, (-1, n_heads, seqlen, d_head))
        x = np.transpose(x, (0, 2, 1, 3))
        return np.reshape(x, (-1, seqlen, n_heads * d_head))

    return compute_attention_output


def _dense(n_units, W):  # tl.Dense(n_units) holding the weight W: (input width, n_units)
    W = np.asarray(W)
    if W.shape[-1] != n_units:
        raise ValueError(f"tl.Dense({n_units}) cannot hold a weight of shape {W.shape}")
    return lambda x: x @ W


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_feature, n_heads = W_Q.shape[-1], num_heads
    assert d_feature % n_heads == 0
    d_head = d_feature // n_heads
    compute_attention_heads = _compute_attention_output_closure(n_heads, d_head)  # tl.Fn('AttnHeads', ...)
    q = compute_attention_heads(_dense(d_feature, W_Q)(X))  # tl.Branch: queries
    k = compute_attention_heads(_dense(d_feature, W_K)(X))  # keys
    v = compute_attention_heads(_dense(d_feature, W_V)(X))  # values
    x = _dot_product_self_attention(q, k, v)
    x = _compute_attention_output_closure(n_heads, d_head)(x)
    return _dense(d_feature, W_O)(x)
