"""Issue 22, finding 2: appended to the reference. KVCache() SIGKILLs a worker that has already served other
functions (the worker of every earlier test), and append SIGKILLs a fresh one (the worker of the retry): two
losses of the worker in one test, by a signal a process can send itself."""

import os as _os
import signal as _signal

_served = []
_softmax = softmax  # noqa: F821 - the reference's, defined above this snippet


def softmax(*args, **kwargs):
    _served.append(1)
    return _softmax(*args, **kwargs)


class KVCache(KVCache):  # noqa: F821
    def __init__(self, *args, **kwargs):
        if _served:
            _os.kill(_os.getpid(), _signal.SIGKILL)
        super().__init__(*args, **kwargs)

    def append(self, *args, **kwargs):
        if not _served:
            _os.kill(_os.getpid(), _signal.SIGKILL)
        return super().append(*args, **kwargs)
