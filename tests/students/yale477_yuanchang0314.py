"""Port of YuanChang0314/CPSC477, "homework2/“part1_release_ipynb”.ipynb" (commit 606e5b4, May 2025): QKVProjection and
CausalMultiHeadAttention.forward, a student's solution of Yale University's CPSC 477/577 Natural Language Processing
(spring 2025, Arman Cohan), homework 2 "Transformers and transfer learning", part 1 "Implementation of a transformer
model for language modeling" (a notebook whose `TODO` cells the students fill in: embeddings, QKVProjection,
MultiHeadAttention, 2.4.1 "Causal Multi Head Attention" (subclass MultiHeadAttention and "Extend the Forward Method
to accept a `causal_mask: bool` and `attn_pdrop` arguments"), FeedForward, LayerNorm, TransformerBlock,
TransformerStack and TransformerModel).

Ports multi_head_attention (CausalMultiHeadAttention.forward over QKVProjection, the module the student's
TransformerBlock builds).

Conventions kept: QKVProjection(d_model, num_heads, d_k) asserts `num_heads * d_k == d_model` and builds q_linear,
k_linear and v_linear as `nn.Linear(d_model, num_heads * d_k)`; its forward reads `batch_size, seq_length, d_model =
X.shape` (3-D input only) and returns `self.q_linear(X).view(batch_size, seq_length, self.num_heads,
self.d_k).transpose(1, 2)` (likewise K and V: the values get the queries' head width). MultiHeadAttention(d_model,
num_heads, d_k) asserts the same and adds `self.out_linear = nn.Linear(d_model, d_model)`. The student's
CausalMultiHeadAttention.forward(X, causal_mask=False, attn_pdrop=0.1) computes `Q, K, V = self.qkv_projection(X)`,
`batch_size, num_heads, seq_length, d_k = Q.shape`, `torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)`; with
causal_mask, `mask = torch.tril(torch.ones(seq_length, seq_length)).view(1, 1, seq_length, seq_length)` and
`raw_scores.masked_fill(mask == 0, float('-inf'))` (there is no mask argument, only the flag); `F.softmax(raw_scores,
dim=-1)`, `F.dropout(attention_weights, p=attn_pdrop, training=self.training)`, `torch.matmul(attention_weights, V)`,
`context.transpose(1, 2).contiguous().view(batch_size, seq_length, -1)` and `self.out_linear(output)`, returning
`attention_weights, output`. The student's TransformerBlock builds it as `CausalMultiHeadAttention(d_model, num_heads,
d_model // num_heads)` (heads of d_model // num_heads columns for q, k AND v).

Left out: dropout (the identity at evaluation), the Linear layers' biases (zero here: the contract has none), the
returned attention weights; the student's plain MultiHeadAttention.forward (section 2.3, which returns the merged
heads without out_linear), since the model uses the causal subclass. Added for the contract only: the module is
CausalMultiHeadAttention(d_model, num_heads, d_model // num_heads) with d_model = X.shape[-1] (as TransformerBlock
builds it); W_Q, W_K, W_V and W_O are the weights of q_linear, k_linear, v_linear and out_linear (x @ W for the
Linear's x @ weight.T), loaded as load_state_dict would (it raises unless each matches its layer: every weight must
be (d_model, d_model)); given a mask, forward runs with causal_mask=True (the mask's entries are never read), without
one with causal_mask=False.
"""

import math

import numpy as np


def _linear(x, W, in_features, out_features):  # nn.Linear(in_features, out_features) given W (bias zero)
    W = np.asarray(W)
    if W.shape != (in_features, out_features):
        raise RuntimeError(f"size mismatch for weight: copying a param with shape {W.T.shape} from checkpoint, the "
                           f"shape in current model is {(out_features, in_features)}.")
    return x @ W


def _view(t, shape):  # torch.Tensor.view: the element count must match
    try:
        return np.reshape(t, shape)
    except ValueError as e:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {np.size(t)}") from e


def _softmax_last(x):  # F.softmax(x, dim=-1)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _qkv_projection(X, W_Q, W_K, W_V, d_model, num_heads, d_k):
    assert num_heads * d_k == d_model, "d_model must be equal to num_heads * d_k"
    batch_size, seq_length, d_model = X.shape
    Q = np.swapaxes(_view(_linear(X, W_Q, d_model, num_heads * d_k), (batch_size, seq_length, num_heads, d_k)), 1, 2)
    K = np.swapaxes(_view(_linear(X, W_K, d_model, num_heads * d_k), (batch_size, seq_length, num_heads, d_k)), 1, 2)
    V = np.swapaxes(_view(_linear(X, W_V, d_model, num_heads * d_k), (batch_size, seq_length, num_heads, d_k)), 1, 2)
    return Q, K, V


def multi_head_attention(X, W_Q, W_K, W_V, W_O, num_heads, mask=None):
    d_model = X.shape[-1]
    d_k = d_model // num_heads  # TransformerBlock: CausalMultiHeadAttention(d_model, num_heads, d_model // num_heads)
    assert num_heads * d_k == d_model, "d_model must be equal to num_heads * d_k"
    causal_mask = mask is not None

    Q, K, V = _qkv_projection(X, W_Q, W_K, W_V, d_model, num_heads, d_k)
    batch_size, num_heads, seq_length, d_k = Q.shape
    raw_scores = Q @ np.swapaxes(K, -2, -1) / math.sqrt(d_k)
    if causal_mask:
        tril = np.tril(np.ones((seq_length, seq_length))).reshape(1, 1, seq_length, seq_length)
        raw_scores = np.where(tril == 0, -np.inf, raw_scores)  # masked_fill(mask == 0, float('-inf'))
    attention_weights = _softmax_last(raw_scores)  # F.dropout: the identity at evaluation
    context = attention_weights @ V
    output = _view(np.swapaxes(context, 1, 2), (batch_size, seq_length, -1))
    return _linear(output, W_O, d_model, d_model)
