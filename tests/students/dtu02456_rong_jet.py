"""Port of Rong-Jet/02456-deep-learning-with-PyTorch, 5_Transformers/5_1_EXE_deep_learning_with_transformers.ipynb
(commit 5fa71d6): the "left-to-right" mask, a student's solution of DTU 02456 Deep Learning (Technical University of
Denmark), week 5 (deep learning with transformers), section III "masked attention" exercise.

Ports causal_mask only (the notebook's attention and masked_attention are the course's given code, not the
student's). The exercise asks for the mask of each factorization of a sentence of `T = len(token_ids)` tokens (the
cell computes T), but the student sized the mask by the notebook's global `attention_map` instead: `"left-to-right":
torch.triu(torch.full(attention_map.size(), float('-inf')))`. That global is the attention map of an EARLIER cell,
`H, attention_map = attention(vectors, vectors, vectors)` on the 11-token sentence "Copenhagen Denmark Stockholm
Sweden Beijing China Tokyo Japan truck car bus", so the mask is always 11 x 11 (it fits the exercise's own 11-token
sentence by coincidence). torch.triu keeps -inf on and above the diagonal and writes 0 below it; the course's cell then
applies `masks[key] = torch.where(masks[key] == 0, 0, -math.inf)` (unchanged here) and its masked_attention adds the
mask to the scores (`attention_map = mask + attention_map`). Conventions kept: an additive float mask, 0 where query i
may attend to key j and -inf where it may not; the diagonal is blocked, so query i sees only the keys j < i (the first
query sees none); a fixed (11, 11) shape whatever the number of queries and keys. Added for the contract only: the
contract's signature `causal_mask(n_q, n_k=None)` (neither argument is read, as T is not in the student's line), and
the global's size as a constant.
"""

import numpy as np

ATTENTION_MAP_SIZE = (11, 11)  # attention_map.size() of the earlier cell's 11-token sentence


def causal_mask(n_q, n_k=None):
    mask = np.triu(np.full(ATTENTION_MAP_SIZE, -np.inf))  # torch.triu(torch.full(attention_map.size(), -inf))
    return np.where(mask == 0, 0.0, -np.inf)  # the course's torch.where(masks[key] == 0, 0, -math.inf)
