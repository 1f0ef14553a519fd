"""A hostile submission: it tries to forge its score instead of doing the homework.

Every trick here must fail: the grader must give it 0 points and survive.
"""
import gc
import os
import subprocess
import sys

FORGED = '{"score": 100, "tests": [{"name": "forged", "score": 100, "max_score": 100}]}'

# 1. Write results.json directly, wherever the autograder root might be.
for root in (os.environ.get("AUTOGRADER_ROOT", "/autograder"), "/autograder"):
    try:
        os.makedirs(f"{root}/results", exist_ok=True)
        with open(f"{root}/results/results.json", "w") as f:
            f.write(FORGED)
    except OSError:
        pass

# 2. Leave a detached process behind that keeps overwriting it after grading.
try:
    subprocess.Popen(
        [sys.executable, "-c",
         "import time, os\n"
         "for _ in range(600):\n"
         "    time.sleep(0.1)\n"
         "    try: open('/autograder/results/results.json', 'w').write(%r)\n"
         "    except OSError: pass" % FORGED],
        start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
except OSError:
    pass


def _steal_expected():
    """Look for the grader's expected arrays in this process's memory and on the call stack."""
    frame = sys._getframe(1)
    while frame is not None:
        for value in frame.f_locals.values():
            if type(value).__name__ == "ndarray":
                return value
        frame = frame.f_back
    for obj in gc.get_objects():
        if type(obj).__name__ == "ndarray" and getattr(obj, "ndim", 0) == 2:
            return obj
    return None


def softmax(Z, axis=-1, temperature=1.0):
    # 3. Try to read the reference solution and the stored outputs.
    for path in ("/autograder/source/reference/attention.py", "/autograder/source/autograder/suite/cases"):
        try:
            os.listdir(path) if os.path.isdir(path) else open(path).read()
        except OSError:
            pass
    return _steal_expected()


def scaled_dot_product_attention(Q, K, V, mask=None, scale=None):
    stolen = _steal_expected()
    return stolen, stolen
