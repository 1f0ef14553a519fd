"""Port of Hanbaor/transformer-assignment, src/model.py (commit 63b9fa7, November 2025): MultiHeadAttention and
Transformer.make_tgt_mask, a student's solution of the mid-term assignment of the course 大模型基础与应用 ("Foundations
and Applications of Large Models", autumn 2025; the README: "大模型基础与应用课程期中作业，基于 PyTorch 实现的
Transformer 模型"), a Transformer written by hand (no torch.nn.Transformer) and trained for German-English translation
on IWSLT2017, with configs/, scripts/run.sh and results/ (the assignment's reproducibility layout).

Ports causal_mask (make_tgt_mask) and multi_head_attention (MultiHeadAttention.forward on self-attention, q = k = v =
X).

Conventions kept: MultiHeadAttention(d_model, n_heads, dropout) asserts `d_model % n_heads == 0`, sets `self.d_k =
d_model // n_heads` (the head width of the queries, keys AND values), builds four `nn.Linear(d_model, d_model)` layers
(fc_q, fc_k, fc_v, fc_o) and `self.scale = torch.sqrt(torch.FloatTensor([self.d_k]))`; forward(q, k, v, mask=None)
reads `batch_size = q.size(0)` (the first axis, whatever it is), views each projection as `view(batch_size, -1,
self.n_heads, self.d_k).transpose(1, 2)`, computes `torch.matmul(Q, K.transpose(-2, -1)) / self.scale`, turns a mask
that is not boolean into one (`mask.bool()`) and fills `scores.masked_fill(~mask, -1e9)` (True = keep; a finite fill,
"避免整行掩码导致 AMP 下 softmax NaN": a fully masked row gets uniform weights; out of place, so mask and scores
broadcast, and a (B, N, N) mask meets the (B, H, N, N) scores without a head axis), takes `torch.softmax(scores.float(),
dim=-1)`, `torch.matmul(attention, V)`, merges with `context.transpose(1, 2).contiguous().view(batch_size, -1,
self.d_model)` (the input's width) and applies fc_o, returning (out, attention). make_tgt_mask(tgt) ANDs `(tgt !=
self.tgt_pad_idx).unsqueeze(1).unsqueeze(3)` ([B, 1, T, 1]) with `torch.tril(torch.ones((tgt_len, tgt_len))).bool()`
([T, T]): a [B, 1, T, T] mask, True = may attend.

Left out: dropout (the identity at evaluation), the Linear layers' biases (zero here: the contract has none), the
float32 scale and softmax (they change values by about 1e-7). Added for the contract only: causal_mask(n_q, n_k) is
make_tgt_mask on a (1, n_q) row of non-pad tokens (n_k has no counterpart); multi_head_attention is MultiHeadAttention(
d_model=X.shape[-1], n_heads=num_heads) with W_Q, W_K, W_V and W_O the weights of fc_q, fc_k, fc_v and fc_o (x @ W for
the Linear's x @ weight.T), loaded as load_state_dict would (it raises unless each is (d_model, d_model)), the
contract's mask passed as the student's, and only the output returned.
"""

import math

import numpy as np

TGT_PAD_IDX = 1  # the vocabularies' <pad> index (any index the row below does not use)


def _linear(x, W, in_features, out_features):  # nn.Linear(in_features, out_features) given W (bias zero)
    W = np.asarray(W)
    if W.shape != (in_features, out_features):
        raise RuntimeError(f"size mismatch for weight: copying a param with shape {W.T.shape} from checkpoint, the "
                           f"shape in current model is {(out_features, in_features)}.")
    return x @ W


def _view(t, shape):  # torch.Tensor.view: the element count must match (-1 inferred)
    try:
        return np.reshape(t, shape)
    except ValueError as e:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {np.size(t)}") from e


def _softmax_last(x):  # torch.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _make_tgt_mask(tgt, tgt_pad_idx=TGT_PAD_IDX):
    tgt_pad_mask = (tgt != tgt_pad_idx)[:, None, :, None]
    tgt_len = tgt.shape[1]
    tgt_sub_mask = np.tril(np.ones((tgt_len, tgt_len))).astype(bool)
    return tgt_pad_mask & tgt_sub_mask


def causal_mask(n_q, n_k=None):
    return _make_tgt_mask(np.zeros((1, n_q), dtype=int))


def _multi_head_attention(q, k, v, W_Q, W_K, W_V, W_O, d_model, n_heads, mask=None):
    assert d_model % n_heads == 0, "d_model must be divisible by n_heads"
    d_k = d_model // n_heads
    scale = math.sqrt(d_k)
    batch_size = q.shape[0]
    Q = _linear(q, W_Q, d_model, d_model)
    K = _linear(k, W_K, d_model, d_model)
    V = _linear(v, W_V, d_model, d_model)
    Q = np.swapaxes(_view(Q, (batch_size, -1, n_heads, d_k)), 1, 2)
    K = np.swapaxes(_view(K, (batch_size, -1, n_heads, d_k)), 1, 2)
    V = np.swapaxes(_view(V, (batch_size, -1, n_heads, d_k)), 1, 2)
    scores = Q @ np.swapaxes(K, -2, -1) / scale
    if mask is not None:
        mask = np.asarray(mask)
        if mask.dtype != bool:
            mask = mask.astype(bool)
        scores = np.where(~mask, -1e9, scores)  # masked_fill(~mask, -1e9), out of place
    attention = _softmax_last(scores)
    context = attention @ V
    context = _view(np.swapaxes(context, 1, 2), (batch_size, -1, d_model))
    out = _linear(context, W_O, d_model, d_model)
    return out, attention


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    out, _attention = _multi_head_attention(X, X, X, W_Q, W_K, W_V, W_O, X.shape[-1], num_heads, mask)
    return out
