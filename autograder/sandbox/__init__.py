"""The trust boundary: student code runs here, in a worker process, and nowhere else.

``worker.py``, ``protocol.py`` and ``seccomp.py`` are copied into the worker's run folder and run as the
sandbox user: they import only the standard library, numpy and each other. ``world_init.py`` (the private
world's PID 1) and ``zygote.py`` (a batch's warm parent of workers) run next to them, as root, with
the same imports and no grader data. The rest (``supervisor``, ``confine``, ``reaper``, ``accounts``, ``runtime``,
``student``, ``callbacks``, ``zygotes``...) runs in the grader and starts, confines, talks to and
cleans up after the worker. This folder may import ``feedback/`` (for
wording) but never ``suite/``, ``results/``, ``commands/`` or ``batch/``.
"""
