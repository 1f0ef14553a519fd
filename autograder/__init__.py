"""A Gradescope autograder for the numpy transformer-attention homework.

One module per concern; ``python -m autograder <command>`` is a thin CLI over them.
"""

__version__ = "0.1.0"
