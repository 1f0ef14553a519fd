"""Port of krkarthik2006/COL772-HindiLM-cs1230298, parta/model.py (commit 1c1dc93, 10 March 2026, "final submission",
the Part A deadline): multi_head_attention (the student's class of that name) and the attention part of
LanguageModel.set_weights, a student's solution of IIT Delhi's COL772 Natural Language Processing (spring 2026), the
mid-term assignment "Hindi LM from Scratch", part A "Transformer-based LM from Scratch" (the course's starter repository
vasco95/COL772-HindiLLM gives parta/model.py with a LanguageModel stub whose set_weights(weights) must load a dictionary
of weights: W_vocab, W_devocab, per layer l and head h W_{l}_Q_{h}, W_{l}_K_{h}, W_{l}_V_{h}, W_{l}_O, the feed-forward
and layer-norm weights, and whose forward(input_ids, attention_mask) returns the logits of a decoder-only transformer;
parta/check.py compares them with the course's at atol 1e-4; the students write every body).

Ports multi_head_attention (the student's multi_head_attention module, its weights loaded as set_weights loads them).

Conventions kept: multi_head_attention(config) sets `self.d_head = self.d_model // self.n_heads` (the heads' width from
the model width, for q, k AND v) and four `nn.Linear(self.d_model, self.d_model, bias=False)` (W_q, W_k, W_v, W_o: every
weight (D, D)); set_weights stacks the heads' weights along the rows (the course's layout) and copies them in,
`block.multi_head_attention.W_q.weight.copy_(torch.cat(W_q_list, dim=0).T)` (likewise W_k and W_v; copy_ broadcasts the
source to the (D, D) weight: W_Q must be (D, D)), `W_o.weight.copy_(weights[f'W_{layer}_O'].T)`; forward(x,
attention_mask): `B, seq_len, _ = x.size()` (3-D only), `self.W_q(x).view(B, seq_len, self.n_heads,
self.d_head).transpose(1, 2)` (likewise k and v), `S = torch.matmul(query_matrix, key_matrix.transpose(-2, -1)) /
math.sqrt(self.d_head)`, `if (self.config['mode'] == "tanh-clipped")` then `tau * tanh(S)`, its own causal mask `M =
torch.triu(torch.full((seq_len, seq_len), float('-inf')), diagonal=1)` added to S (always causal: the model has no other
mask than the padding one), `pad_mask = (attention_mask == 0).view(B, 1, 1, seq_len)` filled with -inf,
`nn.Softmax(dim=-1)(S)`, `head_outputs.transpose(1, 2).contiguous().view(B, seq_len, self.d_model)` (merged into the
model width) and `self.W_o(head_outputs)`.

Left out: the embeddings, the positional encoding, the layer norms, the residual connections, the feed-forward sub-layer
and the un-embedding (the rest of the model), float32 arithmetic. Added for the contract only: multi_head_attention(X,
W_Q, W_K, W_V, W_O, num_heads, mask) builds the module with the config's d_model = X.shape[-1], n_heads = num_heads and
mode "standard" (no clipping), loads the weights as set_weights does, in the course's layout of one layer's weights:
W_1_Q_h is the h-th block of ROWS of W_Q (np.array_split(W_Q, num_heads), D / H rows each; likewise W_1_K_h from W_K and
W_1_V_h from W_V) and W_1_O is W_O. The course's reference multiplies the input by the heads' weights stacked along the
rows, x @ torch.cat([W_{l}_Q_{h} for h ...], dim=0) (five of the six students of the assignment the index holds do so,
and krkarthik2006's commit 246beb0, which moved his code to it from a per-head x @ W_h.T, "added transposes to pass all
testcases"; the per-head weights are (d_head, d_model) blocks, the only shape every student's code takes with several
heads), so that stacked they are W_Q, W_K and W_V again; the attention_mask is all ones (every token real, as the
course's check.py passes it), and the contract's `mask` is never read. It returns the module's output (the attention
sub-layer before the residual connection).
"""

import math

import numpy as np

MODE = "standard"  # the config's attention mode: anything but "tanh-clipped" (no clipping)


def _softmax(S, axis):  # nn.Softmax
    E = np.exp(S - np.max(S, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


def _copy(weight, src):  # weight.copy_(src): src is broadcast to the weight's shape
    return np.array(np.broadcast_to(src, weight.shape))


class _MultiHeadAttention:  # the student's multi_head_attention(nn.Module)
    def __init__(self, config):
        self.config = config
        self.d_model = config["d_model"]
        self.n_heads = config["n_heads"]
        self.d_head = self.d_model // self.n_heads

        self.W_q = np.zeros((self.d_model, self.d_model))  # nn.Linear(d_model, d_model, bias=False).weight
        self.W_k = np.zeros((self.d_model, self.d_model))
        self.W_v = np.zeros((self.d_model, self.d_model))
        self.W_o = np.zeros((self.d_model, self.d_model))

    def forward(self, x, attention_mask):
        B, seq_len, _ = x.shape
        query_matrix = np.swapaxes((x @ self.W_q.T).reshape(B, seq_len, self.n_heads, self.d_head), 1, 2)
        key_matrix = np.swapaxes((x @ self.W_k.T).reshape(B, seq_len, self.n_heads, self.d_head), 1, 2)
        value_matrix = np.swapaxes((x @ self.W_v.T).reshape(B, seq_len, self.n_heads, self.d_head), 1, 2)

        S = query_matrix @ np.swapaxes(key_matrix, -2, -1) / math.sqrt(self.d_head)
        if self.config["mode"] == "tanh-clipped":
            S = self.config["tau"] * np.tanh(S)

        M = np.triu(np.full((seq_len, seq_len), -np.inf), k=1)
        S = S + M[None, None]

        pad_mask = (attention_mask == 0).reshape(B, 1, 1, seq_len)
        S = np.where(pad_mask, -np.inf, S)  # masked_fill

        Attention = _softmax(S, axis=-1)
        head_outputs = Attention @ value_matrix

        head_outputs = np.swapaxes(head_outputs, 1, 2).reshape(B, seq_len, self.d_model)
        return head_outputs @ self.W_o.T


def _set_attention_weights(mha, weights, config, layer):  # the attention part of LanguageModel.set_weights
    W_q_list = []
    W_v_list = []
    W_k_list = []
    for head in range(config["n_heads"]):
        head_idx = head + 1
        W_q_list.append(weights[f"W_{layer}_Q_{head_idx}"])
        W_k_list.append(weights[f"W_{layer}_K_{head_idx}"])
        W_v_list.append(weights[f"W_{layer}_V_{head_idx}"])
    mha.W_q = _copy(mha.W_q, np.concatenate(W_q_list, axis=0).T)
    mha.W_k = _copy(mha.W_k, np.concatenate(W_k_list, axis=0).T)
    mha.W_v = _copy(mha.W_v, np.concatenate(W_v_list, axis=0).T)

    mha.W_o = _copy(mha.W_o, weights[f"W_{layer}_O"].T)


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    config = {"d_model": X.shape[-1], "n_heads": num_heads, "n_layers": 1, "mode": MODE}
    weights = {"W_1_O": W_O}  # the course's layout: the heads' blocks of rows, stacked, are W_Q, W_K and W_V
    blocks = zip(*(np.array_split(W, num_heads, axis=0) for W in (W_Q, W_K, W_V)))
    for h, (W_q, W_k, W_v) in enumerate(blocks, start=1):
        weights[f"W_1_Q_{h}"], weights[f"W_1_K_{h}"], weights[f"W_1_V_{h}"] = W_q, W_k, W_v
    mha = _MultiHeadAttention(config)
    _set_attention_weights(mha, weights, config, 1)
    return mha.forward(X, np.ones(X.shape[:-1]))  # all tokens real
