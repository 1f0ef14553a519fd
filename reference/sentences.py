"""The known mistakes of this homework: id -> one sentence a student reads, saying what to fix and where to look.

The grader names a mistake only with evidence (a stored mistake's output, a fit or a probe); the ids are those of
``mistakes.py`` (``VARIANTS``: regen stores their outputs) and of the diagnosis (``diagnosis/``). ``autograder
template`` writes these sentences into the students' copy of the feedback module, so the public tests name them too.
One line each, ending with a period.
"""

SENTENCES: dict[str, str] = {
    # Part A: projections and scores
    "qkv_transposed": "You returned Q, K, V with tokens as columns (W^T X^T, the worksheet's column-vector form): rows "
    "are tokens here, so compute X @ W_Q (Dis 10 Q1a).",
    "qkv_weights_transposed": "You multiplied by the transposed weights (X @ W.T): W_Q has shape (D, d_k), so Q = X @ "
    "W_Q (Dis 10 Q1a).",
    "qkv_wrong_weight": "One projection used another projection's weights (e.g. K = X @ W_Q): check that Q, K and V "
    "use W_Q, W_K and W_V respectively (Dis 10 Q1a).",
    "qkv_order": "You returned the projections in the wrong order (e.g. Q, V, K): return (Q, K, V) with K = X @ W_K "
    "and V = X @ W_V (Dis 10 Q1a).",
    "transposed_scores": "Your scores are transposed (K Q^T): Z[i, j] must be q_i · k_j, with one row per query and "
    "one column per key (Dis 10 Q1b,e).",
    "scores_not_transposed": "You computed Q @ K without transposing K: the scores are Q K^T, i.e. Q @ np.swapaxes(K, "
    "-1, -2) (Dis 10 Q1e).",
    "scores_scaled": "attention_scores must return the unscaled dot products q_i · k_j: apply 1/sqrt(d_k) only in "
    "scaled_dot_product_attention (Dis 10 Q1b).",
    "no_batch_support": "Your function treats its input as one 2-D matrix and mixes the leading batch/head axes: use @ "
    "and np.swapaxes(K, -1, -2) (not .T or reshape(-1, d)) so that `...` axes are kept.",
    # Part B: softmax
    "softmax_wrong_axis": "Your softmax normalised along the wrong axis (columns instead of rows): each query's "
    "weights over the keys must sum to 1: check the `axis` you pass (the keys are the scores' last axis) and use "
    "it, with keepdims=True, in the max and the sum (Dis 10 Q1f).",
    "softmax_ignores_axis": "Your softmax ignores its `axis` argument and always normalises the last axis: pass axis "
    "(with keepdims=True) to both max and sum (Dis 10 Q1c).",
    "softmax_global_sum": "You divided by the sum over the whole array: normalise each slice separately with np.sum(E, "
    "axis=axis, keepdims=True) (Dis 10 Q1c).",
    "softmax_no_keepdims": "Your sum (or max) along the axis dropped that axis, so the division broadcast against the "
    "wrong entries: use keepdims=True (Dis 10 Q1c).",
    "softmax_unstable": "exp() overflowed for large logits (inf/inf = NaN): subtract each slice's max before "
    "exponentiating, which leaves the softmax unchanged (Dis 10 Q1c).",
    "softmax_global_max": "You subtracted one max over the whole array, so slices far below it underflow to 0/0 = NaN: "
    "subtract each slice's own max (keepdims=True) (Dis 10 Q1c).",
    "softmax_nan_fully_masked": "A slice with nothing to attend to (all -inf, or every key masked) gave NaN (0/0, "
    "e.g. after -inf - (-inf), or exp underflowing to 0): such a slice must become all zeros (Dis 11 Q2).",
    "softmax_neginf_finite": "You replaced -inf by a large finite number, so a slice whose entries are all -inf "
    "became uniform: keep -inf (weight exp(-inf) = 0) and make an all -inf slice all zeros (Dis 11 Q2).",
    "temperature_multiplied": "You multiplied the logits by the temperature: divide them, softmax(z / T), so that "
    "large T flattens the weights (Dis 11 Q2c).",
    "temperature_ignored": "Your softmax ignores the temperature: compute exp(z / T) (Dis 11 Q2c).",
    "returned_list": "You returned a Python list where the contract asks for a numpy array: return np.array(...) of "
    "it, or build the result with numpy operations (np.stack, @, ...).",
    "modified_input": "Your function changed its input array in place (e.g. Z -= ..., x[...] = ..., Q *= ...): compute "
    "into new arrays and leave the inputs untouched.",
    # Part C: masks and scaled dot-product attention
    "causal_strict": "Your causal mask hides the diagonal (j < i): a token may attend to itself, so use j <= i "
    "(np.tril with k=0 for a square mask) (Dis 11 Q2, matrix C).",
    "causal_off_by_one": "Your causal mask is off by one: each query also sees the next key. Query i may see key j iff "
    "j <= i + (n_k - n_q), i.e. np.tril(..., k=n_k - n_q) (Dis 11 Q2, matrix C).",
    "causal_top_left": "Your causal mask ignores n_k - n_q: when there are more keys than queries the last query is "
    "the newest token and must see every key, so allow j <= i + (n_k - n_q) (np.tril(..., k=n_k - n_q)).",
    "causal_offset_sign": "Your causal mask shifts the diagonal the wrong way: query i may see key j iff j <= i + (n_k "
    "- n_q), i.e. np.tril(..., k=n_k - n_q).",
    "causal_upper": "Your causal mask lets tokens see the future instead of the past (np.triu): query i sees keys j <= "
    "i, which is np.tril (Dis 11 Q2, matrix C).",
    "mask_inverted": "Your mask polarity is inverted: True means 'may attend' (PyTorch SDPA convention), and the "
    "disallowed scores are the False ones.",
    "mask_float": "Your mask has the right pattern but is not boolean: return a dtype=bool array (True = may attend).",
    "mask_additive": "You returned an additive mask (0 / -inf): the contract wants a boolean mask, True where query i "
    "may attend to key j.",
    "no_scale": "Your scores were not multiplied by 1/sqrt(d_k): scale them before the softmax (Dis 10 Q2c).",
    "sqrt_missing": "Your scores were divided by d_k instead of sqrt(d_k) (or scaled twice, e.g. once in "
    "attention_scores and again here): use 1/np.sqrt(d_k) once (Dis 10 Q2c).",
    "scale_inverted": "Your scores were multiplied by sqrt(d_k) instead of divided by it: the scale is 1/np.sqrt(d_k) "
    "(Dis 10 Q2c).",
    "scale_wrong_dim": "You scaled by 1/sqrt of the wrong dimension (e.g. the number of tokens Q.shape[0], or "
    "Q.shape[1], which is d_k only when Q is 2-D): d_k is the key/query width, Q.shape[-1] (Dis 10 Q2c).",
    "scale_argument_ignored": "You ignored the `scale` argument: use it when given, and 1/sqrt(d_k) only when it is "
    "None.",
    "masked_zero": "You set the masked scores to 0 instead of -inf, so masked keys still get weight (exp(0) = 1): use "
    "np.where(mask, scores, -np.inf) (Dis 11 Q2, matrix C).",
    "mask_finite_fill": "You filled masked scores with a large finite number (e.g. -1e9), so a fully masked row "
    "gets weights (uniform, or its unmasked ones) instead of zeros: use -np.inf, and make an all -inf row give zero "
    "weights.",
    "mask_after_softmax": "You applied the mask after the softmax, so the remaining weights no longer sum to 1: mask "
    "the scores (to -inf) before the softmax (Dis 11 Q2).",
    "mask_on_weights_resoftmaxed": "You masked the softmax's weights and took a second softmax of them, which "
    "flattens the weights: mask the scores (to -inf) once, before a single softmax (Dis 11 Q2).",
    "scale_after_softmax": "You scaled after the softmax (the weights or the output times the scale), so the weights "
    "no longer sum to 1: multiply the scores Q K^T by the scale before the softmax (Dis 10 Q2c).",
    "mask_ignored": "The mask had no effect: replace the disallowed scores (mask == False) by -inf before the softmax.",
    "weights_unmasked": "Your output uses the mask but the weights you returned do not: return the masked weights, the "
    "same ones you multiply with V (0 where the mask is False, each row summing to 1).",
    "swapped_qk": "You swapped the roles of Q and K (softmax(K Q^T)): the scores are Q K^T, one row per query (Dis 10 "
    "Q1b).",
    "no_softmax": "Your weights are the raw scores: apply the softmax along the keys axis to turn them into weights "
    "that sum to 1 (Dis 10 Q1c).",
    "outputs_swapped": "You returned (weights, out): the contract's order is (out, weights).",
    "mha_fixed_heads": "Your multi_head_attention works only with a fixed number of heads (e.g. two hard-coded "
    "heads): split the projections into num_heads heads of width W_Q.shape[-1] // num_heads (and W_V.shape[-1] // "
    "num_heads), attend in each, concatenate all before W_O.",
    "weights_transposed": "The weights you returned are transposed, with one row per key (..., n_k, n_q): return "
    "them as the softmax over the keys gives them, one row per query and one column per key (..., n_q, n_k).",
    "weights_reshaped": "The weights you returned were reshaped to (..., n_k, n_q), which scrambles their entries: "
    "return them as the softmax over the keys gives them, shape (..., n_q, n_k) (a reshape is not a transpose).",
    # Part D: multi-head attention
    "scale_d_model": "You scaled by 1/sqrt of the model width (X.shape[-1] or W_Q.shape[-1]): each head is scaled "
    "by 1/sqrt(d_k) of its own width, d_k = W_Q.shape[-1] // num_heads (PS4 Q2c).",
    "mha_value_width": "Your code works only when d_v = d_k: V = X @ W_V has H*d_v columns, which may differ from "
    "Q's and K's H*d_k, so give V its own head width d_v = W_V.shape[-1] // num_heads wherever you split, slice or "
    "merge it (PS4 Q2c).",
    "head_split_wrong": "Your heads took interleaved columns (reshape to (N, d_k, H)): head h is the contiguous block "
    "of columns [h*d_k, (h+1)*d_k), i.e. reshape to (..., N, H, d_k) then swap axes (PS4 Q2c).",
    "head_split_reshape": "You reshaped (..., N, H*d_k) straight to (..., H, N, d_k), which mixes tokens and heads: "
    "reshape to (..., N, H, d_k) and then swap the N and H axes (PS4 Q2c).",
    "head_merge_wrong": "You reshaped the head outputs (..., H, N, d_v) straight to (..., N, H*d_v), which mixes "
    "tokens and heads: swap the H and N axes back first, then reshape (PS4 Q2c).",
    "mha_tokens_first": "Your function reads its input as (N, B, D), tokens first (torch's nn.MultiheadAttention "
    "default, batch_first=False), so each token attended over the batch: X is (..., N, D), tokens on axis -2; "
    "don't swap the first two axes.",
    "sdpa_tokens_first": "Your function reads Q, K and V as (N, B, d), tokens first (a time-major layout, torch's "
    "batch_first=False), so each token attended over the batch: Q is (..., N_q, d_k), tokens on axis -2; don't swap "
    "the first two axes.",
    "heads_not_split": "You ran one attention over the full width instead of num_heads separate heads: split the "
    "columns into H heads of width d_k, attend per head, then concatenate (PS4 Q2c).",
    "mha_head_width_model": "You split the heads with width D // num_heads (D = X.shape[-1]): the head width, and "
    "the scale 1/sqrt(d_k), come from d_k = W_Q.shape[-1] // num_heads (d_v = W_V.shape[-1] // num_heads), which "
    "differs from D // H when the projections change widths (PS4 Q2c).",
    "out_width_is_input": "You merged the heads back into the input's width D = X.shape[-1] (e.g. reshape(B, N, D)): "
    "the heads concatenate to H*d_v = W_V.shape[-1] columns, which need not be D: reshape to (..., N, H*d_v) before "
    "W_O (PS4 Q2c).",
    "mha_mask_head_axis": "Your code gives a per-sequence mask of shape (B, N, N) no head axis, so it broadcasts "
    "against the heads instead of the batch: insert it, mask[..., None, :, :], before attending per head (PS4 Q2c).",
    "batch_first_only": "Your function works only with exactly one leading batch axis (it reads the input as (B, N, "
    "D)): inputs are (..., N, D) with any number of leading axes, none included: read sizes from the end "
    "(`X.shape[-2:]`) and keep `...`.",
    "extra_leading_axes": "Your output has extra leading axes of length 1 (e.g. from mask[None, None], X[None] or "
    "cos/sin tables made 4-D): keep the inputs' leading axes as given; a mask or a table broadcasts without added "
    "axes.",
    "last_axis_split": "Your output's last axis is split into several (e.g. RoPE's rotated pairs kept as (..., N, "
    "d/2, 2) for (..., N, d)): join them back into one last axis (`out.reshape(*out.shape[:-2], -1)`).",
    "output_rounded": "Your values are rounded to a few decimal places (e.g. `np.round(out, 4)`): grading compares "
    "the exact values with a tolerance of about rtol=1e-5, atol=1e-6, which rounding exceeds, so return them "
    "unrounded.",
    "low_precision": "Your values are right to only about 3 significant digits (errors near 1e-3): part of the "
    "computation runs in low precision (float16/bfloat16, e.g. RoPE cos/sin tables or a cache): compute in float64 "
    "(float32 is enough).",
    "no_output_projection": "You returned the concatenated heads without the output projection: multiply by W_O (PS4 "
    "Q2c).",
    # Part E: rotary positional embeddings
    "rotation_transposed": "Your rotation matrix is transposed (it rotates clockwise): R(a) = [[cos a, -sin a], [sin "
    "a, cos a]] (Dis 11 Q1c).",
    "angle_degrees": "You treated the angle as degrees: np.cos and np.sin take radians, use the angle as given (Dis 11 "
    "Q1c).",
    "rope_half_split": "You paired coordinate i with i + d/2 (GPT-NeoX 'rotate_half' layout): here the pairs are (2i, "
    "2i+1), i.e. x[..., 0::2] and x[..., 1::2] (Dis 11 Q1c).",
    "rope_mixed_layout": "Your RoPE mixes two layouts: its cos/sin tables pair coordinates one way (e.g. "
    "cat(freqs, freqs)) and its partner coordinates another: use one, pair i = (x_2i, x_2i+1) with tables from "
    "np.repeat(theta, 2) (Dis 11 Q1c).",
    "rope_output_halves": "You rotated the pairs (x_2i, x_2i+1) but wrote the results as two halves (all first "
    "coordinates, then all second ones): put each rotated pair back at columns 2i and 2i+1, e.g. "
    "out[..., 0::2] and out[..., 1::2] (Dis 11 Q1c).",
    "rope_wrong_direction": "Your RoPE rotates clockwise: pair (x_2i, x_2i+1) becomes (x_2i cos - x_2i+1 sin, x_2i sin "
    "+ x_2i+1 cos) (Dis 11 Q1c).",
    "rope_wrong_freq": "Your RoPE frequencies are wrong (e.g. base**(-i/d)): theta_i = base**(-2i/d) for i = 0..d/2-1, "
    "i.e. base ** (-np.arange(0, d, 2) / d) (Dis 11 Q1d).",
    "rope_freq_off_by_one": "Your RoPE frequencies start at the wrong index (e.g. base**(-2(i+1)/d)): the first pair "
    "has theta_0 = 1, theta_i = base**(-2i/d) (Dis 11 Q1d).",
    "rope_single_freq": "You rotated every pair by the same angle: pair i uses its own frequency theta_i = "
    "base**(-2i/d), angle positions[n] * theta_i (Dis 11 Q1d).",
    "rope_freq_sign": "Your RoPE frequencies grow with i (base**(+2i/d)): they must shrink, theta_i = base**(-2i/d), "
    "so the first pair turns fastest (Dis 11 Q1d).",
    "rope_base_ignored": "Your RoPE ignores `base` (it always uses the default, 10000): theta_i = base**(-2i/d) "
    "with the base given (Dis 11 Q1c).",
    "rope_integer_positions": "You turned the positions into integers: positions can be any real numbers (e.g. 0.5), "
    "so use them as floats, np.asarray(positions, dtype=float) (Dis 11 Q1c).",
    "rope_ignores_positions": "You ignored `positions` (using 0..N-1): row n is rotated by positions[n] * theta_i, and "
    "positions can be any real numbers (Dis 11 Q1c).",
    "rope_position_off_by_one": "Your positions are off by one (counting from 1): rotate row n by positions[n] * "
    "theta_i exactly as given (Dis 11 Q1c).",
    # Part F: KV caching
    "cache_overwrites": "Your KVCache.append replaced the cached keys/values instead of adding rows after them: keep "
    "every appended token, oldest first (Dis 11 Q3).",
    "cache_multi_token": "append(k, v) with k of shape (T, d_k) must add T rows (and len() counts rows, not append "
    "calls): concatenate row blocks, e.g. with np.atleast_2d and np.concatenate (Dis 11 Q3).",
    "cache_keys_values_swapped": "Your KVCache gives the values as keys and the keys as values: `keys` returns the "
    "appended k rows and `values` the v rows (Dis 11 Q3).",
    "cache_per_step": "Each token attended only to itself, as if the cache were empty at every step: create one "
    "KVCache() before the loop, pass that same cache to every decode_step, and check that append adds rows instead of "
    "replacing them (Dis 11 Q3).",
    "cache_newest_first": "Your KVCache puts new rows before the old ones: keys and values are kept oldest first, "
    "each append adds its rows at the end (Dis 11 Q3).",
    "shared_state": "State leaks between caches or calls (a new KVCache() is not empty, or a repeated call differs): "
    "create the lists in __init__, not as class attributes, and a fresh KVCache() in each call, not as a default.",
    "extra_projections": "You projected the new token more than once (e.g. layer.key(x) twice): call layer.query, "
    "layer.key and layer.value once per token and reuse the results; the cache keeps the keys and values (Dis 11 Q3).",
    "decode_no_scale": "Your decoding attention did not scale the scores by 1/sqrt(d_k) (Dis 10 Q2c).",
    "decode_rope_wrong_position": "You rotated the new token's query/key at the wrong position: both use its absolute "
    "position len(cache) (0-based, taken before appending) (Dis 11 Q1, Q3).",
    "decode_rope_ignored": "You did not apply RoPE although rope_base was given: rotate q and k with rope(..., "
    "base=rope_base) at the token's position (Dis 11 Q1).",
    "naive_query_position": "You rotated the query of token n at another position than n (e.g. n + 1, counting from "
    "1): positions are 0-based, so rotate q of token n at position n and each key k_j at its own position j (Dis 11 "
    "Q1, Q3).",
    "naive_query_not_rotated": "You did not rotate the query (or rotated it at position 0): at step n, rotate q of "
    "token n at position n, and each key k_j at its own position j (Dis 11 Q1, Q3).",
    "naive_rope_ignored": "Your output is attention without RoPE: either rope_base was not used, or every key was "
    "rotated at the query's position n (rotating q and k by the same angle cancels out). Rotate q at position n and "
    "each k_j at its own position j (Dis 11 Q1c).",
    "rope_one_side": "You rotated only one of q and k: RoPE rotates both, so that q_m · k_n depends only on m - n (Dis "
    "11 Q1c).",
    "decode_excludes_self": "The new token did not attend to itself: append its k and v to the cache first, then "
    "attend over every cached token (Dis 11 Q3).",
    "not_causal": "Tokens attended to later tokens: the output for token n may use only tokens 0..n, as in generation "
    "(Dis 11 Q3).",
    "cache_recomputes": "Your cached generation recomputed earlier tokens' keys/values: with a cache, project each "
    "token exactly once (N calls each of query, key and value) (Dis 11 Q3c).",
    "naive_no_recompute": "generate_naive must recompute the keys and values of tokens 0..n at every step n (N(N+1)/2 "
    "key and value calls): it is the no-cache baseline (Dis 11 Q3b).",
    # Found by inference from the output (the effective scale, what was rotated) or by a probe (the same case
    # rewritten so that one property holds, with the contract's answer): suite/graded/inference.py
    "scale_d_v": "You scaled the scores by 1/sqrt(d_v), the width of V: the scale is 1/sqrt(d_k), with d_k the "
    "width of the queries and keys, Q.shape[-1] (Dis 10 Q2c).",
    "scale_other": "Your weights are the softmax of the scores times another constant than the scale asked for "
    "(1/sqrt(d_k) = 1/np.sqrt(Q.shape[-1]), or `scale` when it is given): check how you compute the scale.",
    "mask_bool_added": "You added a boolean mask to the scores (True counts as 1, False as 0; the mask given, or a "
    "causal one of your own), which shifts them instead of hiding keys: use np.where(mask, scores, -np.inf).",
    "causal_ignores_n_k": "Your causal mask has shape (n_q, n_q): it ignores n_k. It must be (n_q, n_k), with query i "
    "seeing key j iff j <= i + (n_k - n_q), e.g. np.tril(np.ones((n_q, n_k), bool), k=n_k - n_q).",
    "needs_leading_axes": "Your function works only with one fixed number of leading axes (e.g. 4-D input, read as "
    "(B, H, N, d)): the `...` may hold any number of axes, none included: index from the end (`Q.shape[-1]`, "
    "`np.swapaxes(K, -1, -2)`).",
    "needs_shared_mask": "Your function works only with one (N_q, N_k) mask for the whole batch (e.g. it reshapes "
    "the mask to (1, 1, N_q, N_k)): a mask may have leading axes of its own, e.g. (B, N_q, N_k), so keep them and let "
    "it broadcast.",
    "matrix_input_only": "Your function works only with 2-D inputs (N, d): the `...` may hold any number of leading "
    "batch/head axes, so index from the end (`Q.shape[-2]`, `np.swapaxes(K, -1, -2)` rather than `.T`) and let `@` "
    "broadcast over them.",
    "needs_leading_axis": "Your function fails without leading axes: a 2-D input (N, d) is valid too (the `...` "
    "may be empty), so index from the end (`Q.shape[-1]`, `np.swapaxes(K, -1, -2)`, `'...id,...jd->...ij'` in "
    "einsum) instead of naming a batch axis.",
    "default_required": "Your function requires an argument that the contract gives a default (e.g. `def "
    "softmax(Z, axis)`): give it the contract's default (see the docstring, e.g. `axis=-1`) so that calls without it "
    "work.",
    "causal_mask_block_size": "Your causal mask is a fixed (block_size, block_size) buffer used whole, so your code "
    "works only with exactly that many tokens: cut it to the scores (`tril[:N, :N]`; bottom-right aligned when n_q < "
    "n_k) or build it for each call.",
    "causal_buffer_max_tokens": "Your causal mask is cut from a fixed (block_size, block_size) buffer (`tril[:N, "
    ":N]`), so your code works only up to that many tokens: build the mask from the scores' n_q and n_k in each "
    "call (bottom-right aligned when n_q < n_k).",
    "mha_applies_rope": "Your multi_head_attention rotates each head's queries and keys with a RoPE of its own: "
    "the contract's multi-head attention has no positional encoding, so leave positions to the caller (rope is its "
    "own function).",
    "mask_key_padding": "You read the mask as a (batch, n_k) key-padding mask (`mask[:, None, None, :]`): the mask "
    "is (..., n_q, n_k), row i saying which keys query i may attend to, so apply it to the scores as it is.",
    "mask_full_shape": "Your function works only with a mask written out in full (e.g. `scores[~mask] = ...` or "
    "`mask.reshape(N_q, N_k)`): a mask need only broadcast to (..., N_q, N_k), so let numpy broadcast it "
    "(np.where, np.broadcast_to).",
    "always_causal": "Your attention always applies a causal mask of its own, whatever `mask` is passed (or with "
    "none): use only the mask given, and no mask at all when it is None.",
    "needs_square": "Your function works only when there are as many queries as keys (n_q = n_k): Q has N_q rows, K "
    "and V have N_k rows, and the scores are (..., N_q, N_k); size each axis by its own array.",
    "needs_equal_widths": "Your code works only when d_v = d_k: values may be narrower or wider than queries and "
    "keys, so size each array by its own last axis (the output by V.shape[-1]) and never assume (or assert) that the "
    "widths are equal.",
    "needs_same_shape": "Your code works only when Q, K and V have one shape (n_q = n_k and d_v = d_k, as in "
    "self-attention): K and V may have another number of rows than Q, and V another width, so size each array by its "
    "own axes and never assume (or assert) the shapes are equal.",
    "layer_width_model": "Your code works only when the layer projects a token to its own width (d_k = d_v = D, "
    "e.g. one fused projection cut into three D-wide pieces): the layer may change widths, so size q, k and v by what "
    "layer.query(x), layer.key(x) and layer.value(x) return.",
    "mha_square_weights": "Your multi_head_attention works only when every weight is square, (D, D) (e.g. "
    "nn.Linear(D, D) layers loaded with the weights): W_Q and W_K are (D, num_heads * d_k), W_V (D, num_heads * d_v) "
    "and W_O (num_heads * d_v, D_out), so size each by its own weight.",
    "mha_needs_divisible_width": "Your multi_head_attention works only when num_heads divides D = X.shape[-1] "
    "(e.g. `assert embed_dim % num_heads == 0`): the heads' widths come from the weights (d_k = W_Q.shape[-1] // "
    "num_heads), so D need not be a multiple of num_heads.",
    "needs_no_mask": "Your function works only without a mask: a test such as `if mask:` asks whether a whole array "
    "is true, which raises for a mask of more than one entry; to tell whether a mask was given, write `if mask is "
    "not None:`.",
    "needs_mask": "Your function works only when a mask is given: `mask=None` (the default) means no masking, "
    "every query attending to every key, so skip the masking step when the mask is None.",
    "mask_needs_batch_axis": "Your function works only with a mask that has a leading batch axis, e.g. (1, n_q, "
    "n_k) (it slices, unsqueezes or checks the mask's axes as if it had one): a mask need only broadcast to the "
    "scores, so a 2-D (n_q, n_k) mask, shared by the batch, must work too.",
    "needs_float_mask": "Your function works only with a mask of numbers (0/1): the mask is boolean, so use it as "
    "one (np.where(mask, scores, -np.inf), ~mask), not in arithmetic such as 1 - mask.",
    "rope_partial": "You rotated only some of the dimensions (partial rotary, as in GPT-NeoX): here every pair "
    "(2i, 2i+1) for i = 0..d/2-1 is rotated, with theta_i = base**(-2i/d) (Dis 11 Q1c,d).",
    "rope_integer_offset": "You rotated row n by (offset + n) * theta_i from one starting position: `positions` "
    "gives each row its own position, any real number, so rotate row n by positions[n] * theta_i (Dis 11 Q1c).",
}
