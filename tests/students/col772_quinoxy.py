"""Port of quinoxy/COL772-HindiLM-cs1230490, parta/model.py (commit c6ff1f6, spring 2026): MultiHeadAttention and the
causal and padding masks of LanguageModel, a student's solution of IIT Delhi's COL772 Natural Language Processing
(spring 2026), the mid-term assignment "Hindi LM from Scratch", part A "Transformer-based LM from Scratch" (the course's
starter repository vasco95/COL772-HindiLLM gives parta/model.py with a LanguageModel stub whose set_weights(weights)
must load a dictionary of weights: W_vocab, W_devocab, per layer l and head h W_{l}_Q_{h}, W_{l}_K_{h}, W_{l}_V_{h},
W_{l}_O, the feed-forward and layer-norm weights, and whose forward(input_ids, attention_mask) returns the logits of a
decoder-only transformer; parta/check.py compares them with the course's at atol 1e-4; the students write every body).

Ports multi_head_attention (MultiHeadAttention with its set_weights, run with the masks LanguageModel builds).

Conventions kept: MultiHeadAttention(config) reads `self.d_head = config["d_head"]`, `self.tanh_mode = True if
(config["mode"] == "tanh-clipped") else False` and makes four `nn.Linear(self.d_model, self.d_model, bias= False)`
(q_mat, k_mat, v_mat, concat_mat: (D, D) weights, xavier-initialised); set_weights(weights, layer_no) replaces
`self.concat_mat.weight.data = weights[f"W_{layer_no}_O"].T` (any shape: concat_mat then multiplies by W_O) and fills
the q, k and v weights head by head, `self.q_mat.weight.data[:,(i-1) * self.d_head : i * self.d_head] =
weights[f"W_{layer_no}_Q_{i}"].T` (likewise K and V: the (D, D) weight's columns, the input features, take the head's
block of rows transposed, so that q_mat(x) is x times the heads' blocks stacked along the rows, the course's layout; the
block must fit the (D, d_head) slice, so W_Q must be (D, D)); forward(inputs, attention_mask, causal_attention_mask):
`batch_size = inputs.shape[0]`, `seq_len = inputs.shape[1]` (the input read as (B, N, D)), `self.q_mat(inputs)
.reshape(batch_size, seq_len, self.n_heads, self.d_head).transpose(1,2)` (likewise k, and v with the same d_head),
`S_mat = torch.matmul(Q_mat, K_mat) / math.sqrt(self.d_head)` (K_mat transposed; right), `if (self.tanh_mode): S_mat =
self.tau * torch.tanh(S_mat)`, `S_mat + causal_attention_mask`, `S_mat + attention_mask`, `torch.softmax(S_mat, dim =
-1)`, `torch.matmul(attn, V_mat).transpose(1,2).reshape(batch_size, seq_len, self.d_model)` (merged into the model
width), `self.concat_mat(concatenated_result)`. LanguageModel.forward reads `_, seq_len = input_ids.shape` (2-D token
ids: the input read as (B, N, D)); LanguageModel registers `causal_attention` = zeros(512, 512) `masked_fill(pos[None,
:] > pos[:, None], -1e9)` as (1, 1, 512, 512) and its forward passes every layer `self.causal_attention[:,:,:seq_len,
:seq_len]` (always causal: the model has no other mask than the padding one; more than 512 tokens would raise) and
`attn_mask = (1-attention_mask).float() * -1e9` viewed as `[:,None,None,:]`.

Left out: the embeddings, the positional encoding, the layer norms, the residual connections, the SwiGLU feed-forward
sub-layer and the tied un-embedding (the rest of the model), the xavier initialisation (every column it would leave is
overwritten whenever set_weights does not raise), the config print in load_model, float32 arithmetic. Added for the
contract only: multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask) builds MultiHeadAttention with the config's
d_model = X.shape[-1], n_heads = num_heads, d_head = W_Q.shape[-1] // num_heads and mode "standard" (no clipping), loads
the weights with its set_weights in the course's layout of one layer's weights: W_1_Q_h is the h-th block of ROWS of W_Q
(np.array_split(W_Q, num_heads), D / H rows each; likewise W_1_K_h from W_K and W_1_V_h from W_V) and W_1_O is W_O. The
course's reference multiplies the input by the heads' weights stacked along the rows, x @ torch.cat([W_{l}_Q_{h} for h
...], dim=0) (five of the six students of the assignment the index holds do so, this one through the columns of its
weights, and krkarthik2006's commit 246beb0, which moved his code to it from a per-head x @ W_h.T, "added transposes to
pass all testcases"; the per-head weights are (d_head, d_model) blocks, the only shape every student's code takes with
several heads), so that stacked they are W_Q, W_K and W_V again; it runs forward with the masks LanguageModel.forward
builds for an attention_mask of ones (every token real, as the course's check.py passes it), and the contract's `mask`
is never read. It returns the module's output (the attention sub-layer before the residual connection).
"""

import math

import numpy as np

MAX_LEN = 512  # LanguageModel's causal buffer
MODE = "standard"  # the config's attention mode: anything but "tanh-clipped" (no clipping)


def _softmax(S, axis):  # torch.softmax
    E = np.exp(S - np.max(S, axis=axis, keepdims=True))
    return E / np.sum(E, axis=axis, keepdims=True)


class _MultiHeadAttention:
    def __init__(self, config):
        self.n_heads = config["n_heads"]
        self.d_model = config["d_model"]
        self.d_head = config["d_head"]
        self.tanh_mode = config["mode"] == "tanh-clipped"
        self.tau = None
        if self.tanh_mode:
            self.tau = config["tau"]
        self.q_mat = np.zeros((self.d_model, self.d_model))  # nn.Linear(d_model, d_model, bias= False).weight
        self.k_mat = np.zeros((self.d_model, self.d_model))
        self.v_mat = np.zeros((self.d_model, self.d_model))
        self.concat_mat = np.zeros((self.d_model, self.d_model))

    def set_weights(self, weights, layer_no):
        self.concat_mat = weights[f"W_{layer_no}_O"].T  # .weight.data = ...: replaced whatever its shape
        for i in range(1, self.n_heads + 1):
            self.q_mat[:, (i - 1) * self.d_head:i * self.d_head] = weights[f"W_{layer_no}_Q_{i}"].T
            self.k_mat[:, (i - 1) * self.d_head:i * self.d_head] = weights[f"W_{layer_no}_K_{i}"].T
            self.v_mat[:, (i - 1) * self.d_head:i * self.d_head] = weights[f"W_{layer_no}_V_{i}"].T

    def forward(self, inputs, attention_mask, causal_attention_mask):
        batch_size = inputs.shape[0]
        seq_len = inputs.shape[1]

        # making all matrices (batch_size, n_heads, seq_len, d_head)
        Q_mat = np.swapaxes((inputs @ self.q_mat.T).reshape(batch_size, seq_len, self.n_heads, self.d_head), 1, 2)
        K_mat = np.swapaxes((inputs @ self.k_mat.T).reshape(batch_size, seq_len, self.n_heads, self.d_head), 1, 2)
        V_mat = np.swapaxes((inputs @ self.v_mat.T).reshape(batch_size, seq_len, self.n_heads, self.d_head), 1, 2)

        K_mat = np.swapaxes(K_mat, -2, -1)

        S_mat = Q_mat @ K_mat / math.sqrt(self.d_head)

        if self.tanh_mode:
            S_mat = self.tau * np.tanh(S_mat)

        S_mat = S_mat + causal_attention_mask

        S_mat = S_mat + attention_mask

        attn = _softmax(S_mat, axis=-1)

        concatenated_result = np.swapaxes(attn @ V_mat, 1, 2).reshape(batch_size, seq_len, self.d_model)
        return concatenated_result @ self.concat_mat.T


def _causal_attention():  # LanguageModel.__init__'s buffer
    pos = np.arange(MAX_LEN)
    mask = pos[None, :] > pos[:, None]
    causal_attention = np.zeros((MAX_LEN, MAX_LEN))
    causal_attention = np.where(mask, -1e9, causal_attention)  # masked_fill
    return causal_attention[None, None, :, :]


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    config = {"d_model": X.shape[-1], "n_heads": num_heads, "d_head": W_Q.shape[-1] // num_heads, "mode": MODE}
    weights = {"W_1_O": W_O}  # the course's layout: the heads' blocks of rows, stacked, are W_Q, W_K and W_V
    blocks = zip(*(np.array_split(W, num_heads, axis=0) for W in (W_Q, W_K, W_V)))
    for h, (W_q, W_k, W_v) in enumerate(blocks, start=1):
        weights[f"W_1_Q_{h}"], weights[f"W_1_K_{h}"], weights[f"W_1_V_{h}"] = W_q, W_k, W_v
    mha = _MultiHeadAttention(config)
    mha.set_weights(weights, 1)

    attention_mask = np.ones(X.shape[:-1])  # all tokens real; X's leading axes stand for input_ids'
    _, seq_len = attention_mask.shape  # LanguageModel.forward: `_, seq_len = input_ids.shape`
    causal_attention = _causal_attention()[:, :, :seq_len, :seq_len]
    attn_mask = (1 - attention_mask) * -1e9
    attn_mask = attn_mask[:, None, None, :]
    return mha.forward(X, attn_mask, causal_attention)
