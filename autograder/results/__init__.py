"""Gradescope's results.json: the pytest plugin that records graded tests, the document model, its validation.

Imports ``contract`` and the standard library only (plus pytest in ``plugin``).
"""
