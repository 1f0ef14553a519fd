"""A submission that never returns from two functions and kills itself in a third.

The grader must time out those tests, keep grading the rest, and finish quickly.
"""
import os

import numpy as np


def qkv_project(X, W_Q, W_K, W_V):
    return X @ W_Q, X @ W_K, X @ W_V


def attention_scores(Q, K):
    while True:
        pass


def softmax(Z, axis=-1, temperature=1.0):
    os._exit(3)


def causal_mask(n_q, n_k=None):
    blocks = []
    while True:  # a memory bomb
        blocks.append(np.ones(10**7))
