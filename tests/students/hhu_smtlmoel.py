"""Port of smtlmoel/transformer_project, modelling/attention.py (commit d5c4902, "Refactored modelling", March 2024;
the attention first given its padding and future masks in 8b58268, October 2023): Attention and MultiHeadAttention, a
student's solution (winter 2023/24) of Heinrich Heine University Düsseldorf's practical course "Implementing
Transformer Models" (Carel van Niekerk and Hsien-Chin Lin): Practical II asks for an attention module
`Attention(mask_future)` taking "query, key, value, mask=None", where the mask is the course's binary padding mask
(batch, key length), 1 = a real token, and the future mask is built inside; Practical V asks for
`MultiHeadAttention(d_model, n_heads, mask_future)` with bias-free nn.Linear projections `query_transform`,
`key_transform`, `value_transform`, `output_transform`, which the course's tests fill with `load_state_dict`.

Ports scaled_dot_product_attention (Attention.forward) and multi_head_attention (MultiHeadAttention.forward, which
computes its heads' attention itself, in _mask_attention).

Conventions kept: Attention.forward(query, key, value, mask=None) reads `B_Q, N_Q, C_Q = query.shape` and `B_K, N_K,
C_K = key.shape` (3-D only), builds `future_mask = torch.zeros((N_Q, N_K))` (float32; with mask_future, -inf above the
diagonal, unsqueezed), then `combined_mask = future_mask.masked_fill(~mask.unsqueeze(1).to(torch.bool), -np.Infinity)`
(the mask is used whether given or not: no mask raises AttributeError; the course's (batch, N_k) padding mask becomes
(batch, 1, N_k), so a contract (N_q, N_k) mask becomes (N_q, 1, N_k), its first axis read as the batch, and the out of
place masked_fill broadcasts the (N_q, N_k) zeros up to (N_q, N_q, N_k)), and _attention returns
`nn.functional.softmax((q @ k.transpose(1, 2) / np.sqrt(q.shape[-1]) + mask), dim=-1) @ v` (the additive mask meets
the (B, N_q, N_k) scores: it raises unless B is N_q or 1; there is no scale argument; an all -inf row is NaN).
MultiHeadAttention(d_model, num_heads=1, mask_future=False) sets `self.d_key = int(self.d_model/self.num_heads)` and
four `nn.Linear(d_model, d_model, bias=False)`; forward reads `B = query.size(0)`, projects with
`transform(x).view(B, -1, self.num_heads, self.d_key).permute(0, 2, 1, 3)` (the first axis read as the batch, the
rest as tokens), _mask_attention computes `torch.matmul(Q, K.permute(0, 1, 3, 2)) / np.sqrt(self.d_key)`,
`masked_fill(mask.unsqueeze(1).unsqueeze(2)==0, -np.inf)` (the (batch, N_k) padding mask as (batch, 1, 1, N_k); no
mask raises AttributeError; a contract (N, N) mask becomes (N, 1, 1, N), its rows read as the sequences), the future
mask when asked, `torch.softmax(scaled_dot_product, dim=-1) @ V` (an all -inf row is NaN), and _linear_output
`attn.permute(0, 2, 1, 3).contiguous().view(B, -1, self.d_model)` then output_transform.

Left out: the `.to(device)` moves (CPU here). Added for the contract only: scaled_dot_product_attention is
Attention(mask_future=False) (the contract's mask carries any causal pattern), passes the contract's mask (None when no
mask is given) and returns (out, weights) (the student returns the output; the weights are its softmax); `scale` is
accepted and never read; in multi_head_attention d_model is X.shape[-1] and num_heads is num_heads, W_Q, W_K, W_V and
W_O are loaded as the course's tests load the weights, `load_state_dict` of query_transform.weight = W_Q.T (and
likewise), whose shape check raises unless every weight is (d_model, d_model); self-attention passes X as query, key
and value.
"""

import numpy as np


def _softmax_last(x):  # nn.functional.softmax(x, dim=-1): an all -inf row gives NaN
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _attention(query, key, value, mask=None, mask_future=False):  # Attention.forward, returning the weights too
    _B_Q, N_Q, _C_Q = query.shape
    _B_K, N_K, _C_K = key.shape
    future_mask = np.zeros((N_Q, N_K), dtype=np.float32)
    if mask_future:
        future_mask = np.triu(np.full((N_Q, N_K), -np.inf, dtype=np.float32), k=1)[None]
    if mask is None:
        raise AttributeError("'NoneType' object has no attribute 'unsqueeze'")
    keep = np.expand_dims(np.asarray(mask), 1).astype(bool)  # mask.unsqueeze(1).to(torch.bool)
    combined_mask = np.where(~keep, np.float32(-np.inf), future_mask)  # masked_fill, out of place: broadcasts
    weights = _softmax_last(query @ np.swapaxes(key, 1, 2) / np.sqrt(query.shape[-1]) + combined_mask)
    return weights @ value, weights


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _attention(Q, K, V, mask=mask)


def _load_state_dict(d_model, **weights):  # load_state_dict into nn.Linear(d_model, d_model): a size check
    state = {}
    for name, W in weights.items():
        weight = np.asarray(W).T  # nn.Linear stores (out_features, in_features)
        if weight.shape != (d_model, d_model):
            raise RuntimeError(f"Error(s) in loading state_dict for MultiHeadAttention: size mismatch for {name}: "
                               f"copying a param with shape {weight.shape} from checkpoint, the shape in current "
                               f"model is {(d_model, d_model)}.")
        state[name] = weight
    return state


def _mask_attention(Q, K, V, mask, d_key, mask_future=False):
    N_Q = Q.shape[2]
    N_K = K.shape[2]
    scaled_dot_product = (Q @ K.transpose(0, 1, 3, 2)) / np.sqrt(d_key)
    if mask is None:
        raise AttributeError("'NoneType' object has no attribute 'unsqueeze'")
    fill = np.expand_dims(np.asarray(mask), (1, 2)) == 0  # mask.unsqueeze(1).unsqueeze(2) == 0
    scaled_dot_product = np.where(fill, -np.inf, scaled_dot_product)  # masked_fill, out of place
    if mask_future:
        future_mask = np.triu(np.ones((N_Q, N_K)), k=1)[None, None]
        scaled_dot_product = np.where(future_mask == 1, -np.inf, scaled_dot_product)
    return _softmax_last(scaled_dot_product) @ V


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    d_key = int(d_model / num_heads)
    state = _load_state_dict(d_model, query_transform=W_Q, key_transform=W_K, value_transform=W_V,
                             output_transform=W_O)
    query = key = value = X
    B = query.shape[0]
    Q = (query @ state["query_transform"].T).reshape(B, -1, num_heads, d_key).transpose(0, 2, 1, 3)
    K = (key @ state["key_transform"].T).reshape(B, -1, num_heads, d_key).transpose(0, 2, 1, 3)
    V = (value @ state["value_transform"].T).reshape(B, -1, num_heads, d_key).transpose(0, 2, 1, 3)
    attn = _mask_attention(Q, K, V, mask, d_key)
    out = attn.transpose(0, 2, 1, 3).reshape(B, -1, d_model)
    return out @ state["output_transform"].T
