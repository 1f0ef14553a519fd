"""Finding and reading a submission (``.py`` or notebook) into a Program; nothing here executes it.

May import ``feedback/`` (to quote student text safely) and nothing else of the autograder.
"""
