"""The known mistakes of the layernorm homework: id -> the one sentence a student reads (what to fix, where).

The ids are those of ``mistakes.py`` (``VARIANTS``: regen stores their outputs). ``autograder template`` writes
these sentences into the students' copy of the feedback module, so the public tests name them too.
"""

SENTENCES: dict[str, str] = {
    # Part A: layer_norm
    "ln_wrong_axis": "You normalised over the first axis (across rows) instead of the last: each row is normalised "
    "over its own D features, so take the mean and variance with axis=-1, keepdims=True.",
    "ln_eps_outside_sqrt": "You added eps to the standard deviation, sqrt(var) + eps: eps goes inside the square "
    "root, (x - mean) / sqrt(var + eps).",
    "ln_unbiased_variance": "You used the unbiased variance (dividing by D - 1, ddof=1): layer norm uses the biased "
    "variance of the row, the mean of (x - mean)**2 over its D features.",
    "ln_gamma_beta_swapped": "gamma and beta are swapped: gamma scales the normalised rows and beta is added, "
    "gamma * x_hat + beta.",
    # Part B: relu, feed_forward, pre_norm_block
    "relu_minimum": "Your relu keeps the negative entries and zeroes the positive ones: relu(x) = max(x, 0).",
    "ff_no_activation": "Your feed_forward has no activation between its two layers: apply relu to x @ W1 + b1 "
    "before the second layer.",
    "ff_activation_on_output": "Your feed_forward applies relu to its output too: only the hidden layer is "
    "activated, the output is relu(x @ W1 + b1) @ W2 + b2.",
    "ff_bias_after_activation": "You added b1 after the relu: the hidden layer is relu(x @ W1 + b1), its bias "
    "inside the activation.",
    "block_no_residual": "Your pre_norm_block forgot the residual: return x + feed_forward(layer_norm(x, ...), "
    "...), the input itself added to the network's output.",
    "block_post_norm": "You normalised after the residual (post-norm, layer_norm(x + feed_forward(x))): a pre-norm "
    "block normalises the input first, x + feed_forward(layer_norm(x)).",
    "block_residual_normalized": "Your residual adds the normalised input: the skip connection carries x itself, "
    "x + feed_forward(layer_norm(x)).",
    # Part C: RunningStats
    "stats_last_batch_only": "Your RunningStats keeps only the last batch's statistics: merge each batch with "
    "everything seen before, so the result is as if every row had come in one batch.",
    "stats_mean_of_means": "You averaged the batches' means (and variances) with equal weights: weight each batch "
    "by its number of rows.",
    "stats_variance_not_merged": "Your variance averages the batches' variances but forgets the spread between "
    "their means: add delta**2 * count * n / (count + n), with delta the difference of the means (Chan et al.).",
    "stats_unbiased_variance": "Your running variance is the unbiased one (1/(count - 1)): keep the biased "
    "variance, 1/count, of every row seen.",
    # the engine's own
    "modified_input": "You changed an input array in place: compute into new arrays instead (x = x - mean, not "
    "x -= mean).",
    "returned_list": "A result (or attribute) of yours is a Python list where a numpy array is due: build it with "
    "numpy operations, or np.array(...) of it.",
    "low_precision": "Your values are right to about 3 digits only: compute in float64, not float16 or float32.",
}
