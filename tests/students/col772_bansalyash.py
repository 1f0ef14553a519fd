"""Port of bansal-yash/COL772-HindiLM-cs5221133, parta/model.py (commit aeeb0dd, spring 2026): Multi_Head_Attention and
the attention part of LanguageModel.set_weights, a student's solution of IIT Delhi's COL772 Natural Language Processing
(spring 2026), the mid-term assignment "Hindi LM from Scratch", part A "Transformer-based LM from Scratch" (the course's
starter repository vasco95/COL772-HindiLLM gives parta/model.py with a LanguageModel stub whose set_weights(weights)
must load a dictionary of weights: W_vocab, W_devocab, per layer l and head h W_{l}_Q_{h}, W_{l}_K_{h}, W_{l}_V_{h},
W_{l}_O, the feed-forward and layer-norm weights, and whose forward(input_ids, attention_mask) returns the logits of a
decoder-only transformer; parta/check.py compares them with the course's at atol 1e-4; the students write every body).

Ports multi_head_attention (Multi_Head_Attention, its weights loaded as set_weights loads them).

Conventions kept: Multi_Head_Attention(d_model, n_heads, d_head, mode, tau) makes one fused `self.qkv_mat =
nn.Linear(d_model, 3 * d_model, bias=False)` and `self.o_mat = nn.Linear(d_model, d_model, bias=False)` (square weights)
and registers `torch.tril(torch.ones(MAX_SEQ_LEN, MAX_SEQ_LEN, dtype=torch.bool))` with MAX_SEQ_LEN = 512; set_weights
copies `o_mat.weight.copy_(all_o_weights.T)` and stacks the heads' weights along the rows (the course's layout),
`all_q_weights = torch.cat([weights[f"W_{i}_Q_{h}"] for h in range(1, self.n_heads + 1)], dim=0).T` (likewise K and V),
`all_qkv_weights = torch.cat([all_q_weights, all_k_weights, all_v_weights], dim=0)`,
`qkv_mat.weight.copy_(all_qkv_weights)` (copy_ broadcasts the source to the (3D, D) weight: it is [W_Q | W_K | W_V]
transposed, as nn.Linear wants it, when W_Q, W_K and W_V are (D, D)); forward(x, attention_mask): `B, T, _ = x.shape`
(3-D only), `q, k, v = self.qkv_mat(x).split(self.d_model, dim=-1)` (cut at the model width), `q.view(B, T,
self.n_heads, self.d_head).transpose(1, 2)` (likewise k, and v with the same d_head), `s = torch.matmul(q,
k.transpose(-2, -1)) / self.d_head ** (1 / 2)`, `if self.tanh_clip: s = self.tau * torch.tanh(s)`, its own causal mask
(`self.causal_mask[:T, :T]`, or a new `torch.tril(torch.ones(T, T))` past 512 tokens: always causal, the model has no
other mask than the padding one) filled with -inf, `pad_mask = attention_mask.bool().view(B, 1, 1, T)` filled with -inf,
`torch.softmax(s, dim=-1)`, `torch.matmul(attention, v)`, `v.transpose(1, 2).reshape(B, T, self.d_model)` (merged into
the model width), `self.o_mat(v)` and `v * pad_mask.squeeze(1).transpose(-1, -2).float()` (zero at padded tokens).

Left out: the embeddings, the positional encoding, the layer norms, the residual connections, the feed-forward sub-layer
and the un-embedding (the rest of the model), float32 arithmetic. Added for the contract only: multi_head_attention(X,
W_Q, W_K, W_V, W_O, num_heads, mask) builds Multi_Head_Attention(d_model = X.shape[-1], n_heads = num_heads, d_head =
W_Q.shape[-1] // num_heads, mode "standard" (no clipping), tau None), loads the weights as set_weights does, in the
course's layout of one layer's weights: W_1_Q_h is the h-th block of ROWS of W_Q (np.array_split(W_Q, num_heads), D / H
rows each; likewise W_1_K_h from W_K and W_1_V_h from W_V) and W_1_O is W_O. The course's reference multiplies the input
by the heads' weights stacked along the rows, x @ torch.cat([W_{l}_Q_{h} for h ...], dim=0) (five of the six students of
the assignment the index holds do so, and krkarthik2006's commit 246beb0, which moved his code to it from a per-head x @
W_h.T, "added transposes to pass all testcases"; the per-head weights are (d_head, d_model) blocks, the only shape every
student's code takes with several heads), so that stacked they are W_Q, W_K and W_V again; the attention_mask is all
ones (every token real, as the course's check.py passes it), and the contract's `mask` is never read. It returns the
module's output (the attention sub-layer before the residual connection).
"""

import numpy as np

MAX_SEQ_LEN = 512
MODE = "standard"  # the config's attention mode: anything but "tanh-clipped" (no clipping)


def _softmax(s, axis):  # torch.softmax
    e = np.exp(s - np.max(s, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _torch_split(x, size, axis):  # torch.split(x, size, dim): pieces of `size`, the last one shorter
    return np.split(x, list(range(size, x.shape[axis], size)), axis=axis)


def _copy(weight, src):  # weight.copy_(src): src is broadcast to the weight's shape
    return np.array(np.broadcast_to(src, weight.shape))


class _MultiHeadAttention:  # the student's Multi_Head_Attention
    def __init__(self, d_model, n_heads, d_head, mode, tau):
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_head = d_head
        self.mode = mode
        self.tau = tau
        self.tanh_clip = mode == "tanh-clipped"

        self.o_mat = np.zeros((d_model, d_model))  # nn.Linear(d_model, d_model, bias=False).weight
        self.qkv_mat = np.zeros((3 * d_model, d_model))  # nn.Linear(d_model, 3 * d_model, bias=False).weight

        self.causal_mask = np.tril(np.ones((MAX_SEQ_LEN, MAX_SEQ_LEN), dtype=bool))

    def forward(self, x, attention_mask):
        B, T, _ = x.shape

        q, k, v = _torch_split(x @ self.qkv_mat.T, self.d_model, axis=-1)

        q = np.swapaxes(q.reshape(B, T, self.n_heads, self.d_head), 1, 2)
        k = np.swapaxes(k.reshape(B, T, self.n_heads, self.d_head), 1, 2)
        v = np.swapaxes(v.reshape(B, T, self.n_heads, self.d_head), 1, 2)

        s = q @ np.swapaxes(k, -2, -1) / self.d_head ** (1 / 2)

        if self.tanh_clip:
            s = self.tau * np.tanh(s)

        if T > MAX_SEQ_LEN:
            causal_mask = np.tril(np.ones((T, T), dtype=bool))
        else:
            causal_mask = self.causal_mask[:T, :T]

        s = np.where(causal_mask == 0, -np.inf, s)  # masked_fill

        pad_mask = attention_mask.astype(bool).reshape(B, 1, 1, T)
        s = np.where(pad_mask == 0, -np.inf, s)

        attention = _softmax(s, axis=-1)

        v = attention @ v
        v = np.swapaxes(v, 1, 2).reshape(B, T, self.d_model)
        v = v @ self.o_mat.T
        return v * np.swapaxes(pad_mask.squeeze(1), -1, -2).astype(float)


def _set_attention_weights(mha, weights, n_heads, i):  # the attention part of LanguageModel.set_weights
    all_o_weights = weights[f"W_{i}_O"]
    mha.o_mat = _copy(mha.o_mat, all_o_weights.T)

    all_q_weights = np.concatenate([weights[f"W_{i}_Q_{h}"] for h in range(1, n_heads + 1)], axis=0).T
    all_k_weights = np.concatenate([weights[f"W_{i}_K_{h}"] for h in range(1, n_heads + 1)], axis=0).T
    all_v_weights = np.concatenate([weights[f"W_{i}_V_{h}"] for h in range(1, n_heads + 1)], axis=0).T
    all_qkv_weights = np.concatenate([all_q_weights, all_k_weights, all_v_weights], axis=0)

    mha.qkv_mat = _copy(mha.qkv_mat, all_qkv_weights)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_k = W_Q.shape[-1] // num_heads  # the config's d_head
    weights = {"W_1_O": W_O}  # the course's layout: the heads' blocks of rows, stacked, are W_Q, W_K and W_V
    blocks = zip(*(np.array_split(W, num_heads, axis=0) for W in (W_Q, W_K, W_V)))
    for h, (W_q, W_k, W_v) in enumerate(blocks, start=1):
        weights[f"W_1_Q_{h}"], weights[f"W_1_K_{h}"], weights[f"W_1_V_{h}"] = W_q, W_k, W_v
    mha = _MultiHeadAttention(X.shape[-1], num_heads, d_k, MODE, None)
    _set_attention_weights(mha, weights, num_heads, 1)
    return mha.forward(X, np.ones(X.shape[:-1]))  # all tokens real
