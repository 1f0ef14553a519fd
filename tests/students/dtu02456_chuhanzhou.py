"""Port of ChuhanZhou/02456-deep-learning-with-PyTorch, 5_Transformers/5_1_EXE_deep_learning_with_transformers.ipynb
(commit d166d5d): the "left-to-right" mask, a student's solution of DTU 02456 Deep Learning (Technical University of
Denmark), week 5 (deep learning with transformers), section III "masked attention" exercise.

Ports causal_mask only (the notebook's attention and masked_attention are the course's given code, not the
student's). The exercise asks for the mask of each factorization of a sentence of `T = len(token_ids)` tokens; the
student wrote `"left-to-right": torch.tril(torch.ones(T, T))` (ones on and below the diagonal: the keys a query MAY
attend to, read as True = may attend), but the course's cell turns every mask into an ADDITIVE one whose NONZERO
entries are blocked, `masks[key] = torch.where(masks[key] == 0, 0, -math.inf)`, which its masked_attention adds to the
scores (`attention_map = mask + attention_map`). Conventions kept: the mask is a float array, 0 where the student's
mask is 0 and -inf where it is 1, so query i is blocked from every key j <= i (itself and the past) and sees only the
future keys j > i (the last query sees none); it is square, T x T over one sequence's tokens. Added for the contract
only: the contract's signature `causal_mask(n_q, n_k=None)`, with T = n_q (the number of tokens; n_k is never read).
"""

import numpy as np


def causal_mask(n_q, n_k=None):
    T = n_q  # the notebook's T = len(token_ids); n_k is never read
    mask = np.tril(np.ones((T, T)))  # torch.tril(torch.ones(T, T))
    return np.where(mask == 0, 0.0, -np.inf)  # the course's torch.where(masks[key] == 0, 0, -math.inf)
