"""Port of KasparSenft/Implementing_Transformers, modelling/attention.py (commit 328ef3e; Attention since 649bed2,
"implemented attention", October 2023, and MultiHeadAttention since 51471d5, "implemented mha", January 2024):
Attention and MultiHeadAttention, a student's solution (winter 2023/24) of Heinrich Heine University Düsseldorf's
practical course "Implementing Transformer Models" (Carel van Niekerk and Hsien-Chin Lin): Practical II asks for an
attention module `Attention(mask_future)` taking "query, key, value, mask", where the mask is the course's binary
padding mask (batch, key length), 1 = a real token, and the future mask is built inside; Practical V asks for
`MultiHeadAttention(d_model, n_heads, mask_future)` with bias-free nn.Linear projections `query_transform`,
`key_transform`, `value_transform`, `output_transform`, which the course's tests fill with `load_state_dict`.

Ports scaled_dot_product_attention (Attention.forward) and multi_head_attention (MultiHeadAttention.forward, which
calls the student's Attention).

Conventions kept: Attention.forward(q, k, v, attn_mask) (the mask has no default and is used unconditionally) reads
`d = q.shape[-1]`, `n_q = q.shape[1]`, `n_k = k.shape[1]`, builds `forward_mask = torch.tril(torch.ones(n_q, n_k))`,
`scale = torch.tensor(d).sqrt()` (an integer tensor's square root: float32), `attn_logits =
torch.bmm(q, k.transpose(1, 2)) / scale` (3-D only, one batch axis of the same length in q and k; there is no scale
argument), with mask_future `attn_logits.masked_fill_(forward_mask == 0, -torch.inf)`, then `attn_mask =
attn_mask.unsqueeze(dim=1)` (the course's (batch, N_k) padding mask becomes (batch, 1, N_k): a contract (N_q, N_k)
mask becomes (N_q, 1, N_k), its first axis read as the batch) and `attn_logits.masked_fill_(attn_mask == 0,
-torch.inf)` (IN PLACE: the mask must broadcast to the scores' shape without growing it), `torch.softmax(attn_logits,
dim=-1)` (an all -inf row is NaN) and `torch.bmm(w, v)`. MultiHeadAttention(d_model, h, mask_future) makes four
`torch.nn.Linear(d_model, d_model, bias=False)` and one Attention; forward(x_q, x_k, x_v, attn_mask) projects, runs
transpose_for_mha (`x.reshape(x.shape[0], x.shape[1], self.h, -1)`, `x.permute(0, 2, 1, 3)`, `x.reshape(-1,
x.shape[2], x.shape[3])`: the heads merged into the batch), repeats the mask with `torch.repeat_interleave(attn_mask,
repeats=self.h, dim=0)` (no mask: TypeError; a contract (N, N) mask becomes N * h padding rows), calls `self.attn(Q,
K, V, attn_mask)` (scale 1/sqrt(head width)), untranspose_for_mha (`x.reshape(-1, self.h, x.shape[1], x.shape[2])`,
`x.permute(0, 2, 1, 3)`, `x.reshape(x.shape[0], x.shape[1], -1)`) and output_transform.

Left out: nothing (the student's attention has no dropout). Added for the contract only: scaled_dot_product_attention
is Attention(mask_future=False) (the contract's mask carries any causal pattern), passes the contract's mask as
attn_mask (None when no mask is given, which the student's code does not accept) and returns (out, weights) (the
student returns the output; the weights are its softmax); `scale` is accepted and never read; in
multi_head_attention d_model is X.shape[-1] and h is num_heads, W_Q, W_K, W_V and W_O are loaded as the course's tests
load the weights, `load_state_dict` of query_transform.weight = W_Q.T (and likewise), whose shape check raises unless
every weight is (d_model, d_model); self-attention passes X as query, key and value.
"""

import numpy as np


def _bmm(a, b):  # torch.bmm: two 3-D tensors with the same batch length
    if a.ndim != 3 or b.ndim != 3:
        raise RuntimeError(f"batch1 must be a 3D tensor, got {a.ndim}-D and {b.ndim}-D")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, "
                           f"{a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    return a @ b


def _softmax_last(x):  # torch.softmax(x, dim=-1): an all -inf row gives NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _masked_fill_(x, mask, value):  # Tensor.masked_fill_: in place, the mask must broadcast to x's shape
    return np.where(np.broadcast_to(mask, x.shape), value, x)


def _attention(q, k, v, attn_mask, mask_future=False):  # Attention.forward, returning the weights too
    d = q.shape[-1]
    n_q = q.shape[1]
    n_k = k.shape[1]
    forward_mask = np.tril(np.ones((n_q, n_k)))
    scale = np.sqrt(np.float32(d))  # torch.tensor(d).sqrt(): float32
    attn_logits = _bmm(q, np.swapaxes(k, 1, 2)) / scale
    if mask_future:
        attn_logits = _masked_fill_(attn_logits, forward_mask == 0, -np.inf)
    if attn_mask is None:
        raise AttributeError("'NoneType' object has no attribute 'unsqueeze'")
    attn_mask = np.expand_dims(attn_mask, 1)  # attn_mask.unsqueeze(dim=1)
    attn_logits = _masked_fill_(attn_logits, attn_mask == 0, -np.inf)
    w = _softmax_last(attn_logits)
    return _bmm(w, v), w


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _attention(Q, K, V, None if mask is None else np.asarray(mask))


def _load_state_dict(d_model, **weights):  # load_state_dict into torch.nn.Linear(d_model, d_model): a size check
    state = {}
    for name, W in weights.items():
        weight = np.asarray(W).T  # nn.Linear stores (out_features, in_features)
        if weight.shape != (d_model, d_model):
            raise RuntimeError(f"Error(s) in loading state_dict for MultiHeadAttention: size mismatch for {name}: "
                               f"copying a param with shape {weight.shape} from checkpoint, the shape in current "
                               f"model is {(d_model, d_model)}.")
        state[name] = weight
    return state


def _transpose_for_mha(x, h):
    x = x.reshape(x.shape[0], x.shape[1], h, -1)
    x = x.transpose(0, 2, 1, 3)
    return x.reshape(-1, x.shape[2], x.shape[3])


def _untranspose_for_mha(x, h):
    x = x.reshape(-1, h, x.shape[1], x.shape[2])
    x = x.transpose(0, 2, 1, 3)
    return x.reshape(x.shape[0], x.shape[1], -1)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model, h = X.shape[-1], num_heads
    state = _load_state_dict(d_model, query_transform=W_Q, key_transform=W_K, value_transform=W_V,
                             output_transform=W_O)
    x_q = x_k = x_v = X
    Q = _transpose_for_mha(x_q @ state["query_transform"].T, h)
    K = _transpose_for_mha(x_k @ state["key_transform"].T, h)
    V = _transpose_for_mha(x_v @ state["value_transform"].T, h)
    if mask is None:  # torch.repeat_interleave(None, ...)
        raise TypeError("repeat_interleave() received an invalid combination of arguments - got (NoneType, dim=int, "
                        "repeats=int)")
    attn_mask = np.repeat(np.asarray(mask), h, axis=0)  # torch.repeat_interleave(attn_mask, repeats=self.h, dim=0)
    out, _ = scaled_dot_product_attention(Q, K, V, mask=attn_mask)  # self.attn: Attention(mask_future=False)
    out = _untranspose_for_mha(out, h)
    return out @ state["output_transform"].T
