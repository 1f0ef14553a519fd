"""Port of Maplewarrior/02456-deep-learning-with-PyTorch, 5_Transformers/5_1_EXE_deep_learning_with_transformers.ipynb
(commit eedaa19): the "left-to-right" mask, a student's solution of DTU 02456 Deep Learning (Technical University of
Denmark), week 5 (deep learning with transformers), section III "masked attention" exercise.

Ports causal_mask only (the notebook's attention and masked_attention are the course's given code, not the
student's). The exercise asks for the mask of each factorization of a sentence of `T = len(token_ids)` tokens; the
student wrote `"left-to-right": torch.triu(torch.ones(size=(T, T)), diagonal=1)` (ones strictly above the diagonal,
i.e. on the future keys), and the course's cell then turns every mask into an ADDITIVE one, `masks[key] =
torch.where(masks[key] == 0, 0, -math.inf)`, which its masked_attention adds to the scores (`attention_map = mask +
attention_map`). Conventions kept: the mask is a float array, 0 where query i may attend to key j and -inf where it
may not (the future keys j > i: the right geometry), and it is square, T x T over one sequence's tokens (queries and
keys are the same tokens). Added for the contract only: the contract's signature `causal_mask(n_q, n_k=None)`, with
T = n_q (the number of tokens; n_k is never read).
"""

import numpy as np


def causal_mask(n_q, n_k=None):
    T = n_q  # the notebook's T = len(token_ids); n_k is never read
    mask = np.triu(np.ones((T, T)), k=1)  # torch.triu(torch.ones(size=(T, T)), diagonal=1)
    return np.where(mask == 0, 0.0, -np.inf)  # the course's torch.where(masks[key] == 0, 0, -math.inf)
