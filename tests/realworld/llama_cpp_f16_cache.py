"""Port of the KV cache type of ggerganov/llama.cpp, common/common.h (`ggml_type cache_type_k =
GGML_TYPE_F16; ggml_type cache_type_v = GGML_TYPE_F16;`): keys and values are stored in half precision.

Conventions kept: every appended row is converted to float16 when stored (llama.cpp's default KV
cache type); everything else is the usual concatenating cache.
"""

import numpy as np


class KVCache:
    def __init__(self):
        self._k, self._v = [], []

    def append(self, k, v):
        self._k.append(np.atleast_2d(np.asarray(k)).astype(np.float16))
        self._v.append(np.atleast_2d(np.asarray(v)).astype(np.float16))

    @property
    def keys(self):
        return np.concatenate(self._k).astype(np.float64) if self._k else np.zeros((0, 0))

    @property
    def values(self):
        return np.concatenate(self._v).astype(np.float64) if self._v else np.zeros((0, 0))

    def __len__(self):
        return sum(len(k) for k in self._k)
