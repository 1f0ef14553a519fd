"""Which slice of the class a batch grades: ``--shard i/n``, ``--shard auto`` (a Slurm job array or a Kubernetes
Indexed Job), and the slice itself (round-robin over the submissions sorted by id)."""

from __future__ import annotations

from collections.abc import Mapping

from autograder.batch.export import Submission


def parse_shard(text: str) -> tuple[int, int]:
    """``"i/n"`` -> (i, n), 1-based."""
    try:
        i, n = (int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard must look like i/n (e.g. 2/4), not {text!r}") from None
    if not 1 <= i <= n:
        raise ValueError(f"--shard {text}: need 1 <= i <= n")
    return i, n


SHARDS_ENV = "AUTOGRADER_SHARDS"  # n for --shard auto where the scheduler gives only an index (Kubernetes)


def auto_shard(env: Mapping[str, str], shards: int | None = None) -> tuple[int, int]:
    """(i, n) of ``--shard auto`` from a scheduler's environment: a Slurm job array's task, or a Kubernetes
    Indexed Job's completion index (n from ``shards``, else ``AUTOGRADER_SHARDS``). ValueError saying what is
    missing or inconsistent."""
    def number(name: str, default: str | None = None) -> int:
        text = env.get(name, default)
        try:
            return int(str(text).strip())
        except ValueError:
            raise ValueError(f"--shard auto: {name}={text!r} is not a whole number") from None

    if env.get("SLURM_ARRAY_TASK_ID"):
        task, low, step = number("SLURM_ARRAY_TASK_ID"), number("SLURM_ARRAY_TASK_MIN", "0"), number(
            "SLURM_ARRAY_TASK_STEP", "1")
        n = shards or (number("SLURM_ARRAY_TASK_COUNT") if env.get("SLURM_ARRAY_TASK_COUNT") else None)
        if n is None:
            raise ValueError("--shard auto: SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT; give --shards N")
        if step < 1 or task < low or (task - low) % step:
            raise ValueError(f"--shard auto: Slurm task {task} is not on the array's range (min {low}, step {step}): "
                             "use a range like --array=1-N")
        where, i = f"Slurm array task {task}", (task - low) // step + 1
    elif env.get("JOB_COMPLETION_INDEX"):
        n = shards or (number(SHARDS_ENV) if env.get(SHARDS_ENV) else None)
        if n is None:
            raise ValueError(f"--shard auto: JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not how many "
                             f"there are: give --shards N or set {SHARDS_ENV} to the Job's completions")
        where, i = f"Kubernetes completion index {env['JOB_COMPLETION_INDEX']}", number("JOB_COMPLETION_INDEX") + 1
    else:
        raise ValueError("--shard auto needs a job array's index: SLURM_ARRAY_TASK_ID (a Slurm job array) or "
                         "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job); neither is set. Give --shard i/n instead.")
    if not 1 <= i <= n:
        raise ValueError(f"--shard auto: {where} gives slice {i} of {n}, outside 1..{n}")
    return i, n


def select_shard(submissions: list[Submission], shard: tuple[int, int] | None) -> list[Submission]:
    """The i-th of n round-robin slices of the submissions (already sorted by id)."""
    if shard is None:
        return list(submissions)
    i, n = shard
    return submissions[i - 1 :: n]
