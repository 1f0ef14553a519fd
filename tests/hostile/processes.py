"""Processes that try to outlive or overwhelm the worker."""

import os
import time


def fork_bomb():
    made = 0
    for _ in range(1000):
        try:
            pid = os.fork()
        except OSError:
            break
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        made += 1
    return made


def daemon():
    """Double fork + setsid: the grandchild is re-parented away from the worker. Returns its pid."""
    read, write = os.pipe()
    if os.fork() == 0:
        os.setsid()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            os.close(write)
            time.sleep(120)
            os._exit(0)
        os.write(write, str(pid).encode())
        os._exit(0)
    os.close(write)
    pid = int(os.read(read, 32))
    os.close(read)
    return pid
