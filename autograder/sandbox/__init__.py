"""The trust boundary: student code runs here, in a worker process, and nowhere else.

``worker.py`` and ``protocol.py`` are copied into the worker's run folder and run as the sandbox
user: they import only the standard library, numpy and each other. The rest (``supervisor``,
``confine``, ``reaper``, ``accounts``, ``student``, ``callbacks``) runs in the grader and starts,
confines, talks to and cleans up after the worker. This folder may import ``feedback/`` (for
wording) but never ``suite/``, ``results/``, ``commands/`` or ``batch/``.
"""
