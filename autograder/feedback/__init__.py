"""What a student reads: comparison reports, known-mistake diagnoses, and safe markdown quoting.

A leaf: imports only the standard library and numpy. ``compare.py`` and ``feedback_format.py``
are also copied verbatim into the student template (``attention_feedback.py``).
"""
