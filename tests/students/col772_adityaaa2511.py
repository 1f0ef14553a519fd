"""Port of adityaaa2511/COL772-HindiLM-am1221218, parta/model.py (commit d07cf13, 8 March 2026, "Part A completed", the
last change before the Part A deadline): scaled_dot_product_attention, MultiHeadAttention,
LanguageModel.create_causal_mask and the attention part of LanguageModel.set_weights and LanguageModel.forward, a
student's solution of IIT Delhi's COL772 Natural Language Processing (spring 2026), the mid-term assignment "Hindi LM
from Scratch", part A "Transformer-based LM from Scratch" (the course's starter repository vasco95/COL772-HindiLLM gives
parta/model.py with a LanguageModel stub whose set_weights(weights) must load a dictionary of weights: W_vocab,
W_devocab, per layer l and head h W_{l}_Q_{h}, W_{l}_K_{h}, W_{l}_V_{h}, W_{l}_O, the feed-forward and layer-norm
weights, and whose forward(input_ids, attention_mask) returns the logits of a decoder-only transformer; parta/check.py
compares them with the course's at atol 1e-4; the students write every body).

Ports scaled_dot_product_attention (the student's function of that name), causal_mask (create_causal_mask) and
multi_head_attention (MultiHeadAttention, its weights loaded as set_weights loads them and its mask built as forward
builds it).

Conventions kept: scaled_dot_product_attention(query, key, value, mask=None, mode='standard', tau=1) (docstring "Size of
mask = (B,L,L)") reads `B,H,L,D = query.shape` (4-D only), computes `x = torch.matmul(query,key.transpose(-2,-1)) /
D**0.5` (the queries' width: right), `if mode == 'tanh-clipped': x = torch.tanh(x) * tau`, then, given a mask, `mask =
mask.unsqueeze(1)` ("required size (B, 1, L, L) to broadcast across heads") and `x = x + mask` (an additive mask: the
model's own is 0 / -inf; a boolean mask is added as 0 / 1), `F.softmax(x,dim=-1)`, and returns `(output, attn_wts)`; it
has no scale argument. create_causal_mask(self, L, device) returns `torch.triu(torch.ones(L, L), diagonal=1)` with
`mask.masked_fill(mask == 1, float('-inf'))`: a float (L, L) additive mask, 0 on and below the diagonal and -inf above.
MultiHeadAttention(d_model, num_heads) asserts `d_model % num_heads == 0`, sets `self.d_k = d_model // num_heads` (the
heads' width from the model width, for q, k AND v) and makes four `nn.Linear(d_model,d_model, bias=False)` (W_q, W_k,
W_v, out_proj: every weight (D, D)); set_weights stacks the heads' weights along the rows (the course's layout), `Wq_cat
= torch.cat(Wq_list, dim=0)` (likewise K and V), and copies them in, `layer.mha.W_q.weight.copy_(Wq_cat.T)` (copy_
broadcasts the source to the (D, D) weight: W_Q must be (D, D)), `layer.mha.out_proj.weight.copy_(Wo.T)`; forward(x,
mask, mode, tau): `B,L,_ = x.shape` (3-D only), split_heads `x.view(B,L,self.num_heads,self.d_k).transpose(1,2)`,
scaled_dot_product_attention(Q, K, V, mask, mode, tau), merge_heads
`x.transpose(1,2).contiguous().view(B,L,self.d_model)` (merged into the model width), `self.out_proj(attn_output)`.
LanguageModel.forward passes every layer the same mask, `combined_mask = padding_mask.unsqueeze(1) + causal_mask` with
`causal_mask = self.create_causal_mask(L, device)` and `padding_mask` 0 for real tokens and -inf for padded ones (always
causal: the model has no other mask than the padding one).

Left out: the embeddings, the positional encoding, the layer norms, the residual connections, the feed-forward sub-layer
and the un-embedding (the rest of the model), the unused attention weights MultiHeadAttention returns, float32
arithmetic. Added for the contract only: scaled_dot_product_attention(Q, K, V, mask, scale) is the student's function
with mode 'standard' (its default), the contract's mask given as its mask, and `scale` never read; causal_mask(n_q, n_k)
is create_causal_mask(n_q) (n_k has no counterpart); multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask) builds
MultiHeadAttention(d_model = X.shape[-1], num_heads), loads the weights as set_weights does, in the course's layout of
one layer's weights: W_1_Q_h is the h-th block of ROWS of W_Q (np.array_split(W_Q, num_heads), D / H rows each; likewise
W_1_K_h from W_K and W_1_V_h from W_V) and W_1_O is W_O. The course's reference multiplies the input by the heads'
weights stacked along the rows, x @ torch.cat([W_{l}_Q_{h} for h ...], dim=0) (five of the six students of the
assignment the index holds do so, and krkarthik2006's commit 246beb0, which moved his code to it from a per-head x @
W_h.T, "added transposes to pass all testcases"; the per-head weights are (d_head, d_model) blocks, the only shape every
student's code takes with several heads), so that stacked they are W_Q, W_K and W_V again; it runs forward(X,
combined_mask, 'standard', 1) with the combined mask LanguageModel.forward builds for an attention_mask of ones (every
token real, as the course's check.py passes it), and the contract's `mask` is never read. It returns the module's output
(the attention sub-layer before the residual connection).
"""

import numpy as np


def _softmax(x, axis):  # F.softmax
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _copy(weight, src):  # weight.copy_(src): src is broadcast to the weight's shape
    return np.array(np.broadcast_to(src, weight.shape))


def _scaled_dot_product_attention(query, key, value, mask=None, mode="standard", tau=1):
    "Size of mask = (B,L,L)"
    _B, _H, _L, D = query.shape
    x = query @ np.swapaxes(key, -2, -1) / D**0.5
    if mode == "tanh-clipped":
        x = np.tanh(x) * tau
    if mask is not None:
        mask = np.expand_dims(mask, 1)  # required size (B, 1, L, L) to broadcast across heads
        x = x + mask

    attn_wts = _softmax(x, axis=-1)
    output = attn_wts @ value
    return output, attn_wts


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    return _scaled_dot_product_attention(Q, K, V, mask)


def _create_causal_mask(L, device=None):
    mask = np.triu(np.ones((L, L)), k=1)
    mask = np.where(mask == 1, -np.inf, mask)  # masked_fill
    return mask


def causal_mask(n_q, n_k=None):
    return _create_causal_mask(n_q)


class _MultiHeadAttention:
    def __init__(self, d_model, num_heads):
        assert d_model % num_heads == 0
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.W_q = np.zeros((d_model, d_model))  # nn.Linear(d_model,d_model, bias=False).weight
        self.W_k = np.zeros((d_model, d_model))
        self.W_v = np.zeros((d_model, d_model))
        self.out_proj = np.zeros((d_model, d_model))

    def split_heads(self, x):
        B, L, _ = x.shape
        x = x.reshape(B, L, self.num_heads, self.d_k)
        return np.swapaxes(x, 1, 2)

    def merge_heads(self, x):
        B, _H, L, _D_k = x.shape
        x = np.swapaxes(x, 1, 2).reshape(B, L, self.d_model)
        return x

    def forward(self, x, mask=None, mode="standard", tau=1):
        _B, _L, _ = x.shape
        Q = self.split_heads(x @ self.W_q.T)
        K = self.split_heads(x @ self.W_k.T)
        V = self.split_heads(x @ self.W_v.T)
        attn_output, attn_wts = _scaled_dot_product_attention(Q, K, V, mask, mode, tau)
        attn_output = self.merge_heads(attn_output)
        output = attn_output @ self.out_proj.T
        return output, attn_wts


def _set_attention_weights(mha, weights, n_heads, layer_id):  # the attention part of LanguageModel.set_weights
    Wq_list = []
    Wk_list = []
    Wv_list = []

    for h in range(n_heads):
        head_id = h + 1

        Wq = weights[f"W_{layer_id}_Q_{head_id}"]
        Wk = weights[f"W_{layer_id}_K_{head_id}"]
        Wv = weights[f"W_{layer_id}_V_{head_id}"]

        Wq_list.append(Wq)
        Wk_list.append(Wk)
        Wv_list.append(Wv)

    Wq_cat = np.concatenate(Wq_list, axis=0)
    Wk_cat = np.concatenate(Wk_list, axis=0)
    Wv_cat = np.concatenate(Wv_list, axis=0)

    mha.W_q = _copy(mha.W_q, Wq_cat.T)
    mha.W_k = _copy(mha.W_k, Wk_cat.T)
    mha.W_v = _copy(mha.W_v, Wv_cat.T)

    Wo = weights[f"W_{layer_id}_O"]
    mha.out_proj = _copy(mha.out_proj, Wo.T)


def _combined_mask(attention_mask):  # the mask LanguageModel.forward builds
    _B, L = attention_mask.shape
    causal_mask = _create_causal_mask(L)

    padding_mask = np.zeros(attention_mask.shape)
    padding_mask = np.where(attention_mask == 0, -np.inf, padding_mask)  # masked_fill

    return padding_mask[:, None, :] + causal_mask  # Shape = (B, L, L)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    weights = {"W_1_O": W_O}  # the course's layout: the heads' blocks of rows, stacked, are W_Q, W_K and W_V
    blocks = zip(*(np.array_split(W, num_heads, axis=0) for W in (W_Q, W_K, W_V)))
    for h, (W_q, W_k, W_v) in enumerate(blocks, start=1):
        weights[f"W_1_Q_{h}"], weights[f"W_1_K_{h}"], weights[f"W_1_V_{h}"] = W_q, W_k, W_v
    mha = _MultiHeadAttention(X.shape[-1], num_heads)
    _set_attention_weights(mha, weights, num_heads, 1)
    combined_mask = _combined_mask(np.ones(X.shape[:-1]))  # all tokens real
    output, _ = mha.forward(X, combined_mask, "standard", 1)
    return output
