"""Part E: rotary positional embeddings (Dis 11 Q1). Points: autograder/contract.py (POINTS).

RoPE is tested directly: shifting every position by the same amount leaves attention
unchanged (Dis 11 Q1c), so only rope's own output shows a position that is off by one.
"""

from __future__ import annotations

from autograder.api import check, graded

# ---- rotation_matrix ------------------------------------------------------------------------------------


@graded("E.1", "rotation_matrix")
def test_rotation_counter_clockwise(student):
    """rotation_matrix: counter-clockwise, angles in radians (π/2, 0.4, -1.2)"""
    check(student, "rotation-quarter", "rotation-small", "rotation-negative")


@graded("E.2", "rotation_matrix", hidden=True)
def test_rotation_dis11(student):
    """rotation_matrix: Dis 11 Q1 R(2θ) and R(5θ) for θ = 0.7, and an angle over a full turn"""
    check(student, "rotation-dis11-2theta", "rotation-dis11-5theta", "rotation-dis11-big")


# ---- rope -----------------------------------------------------------------------------------------------


@graded("E.3", "rope")
def test_rope_2d(student):
    """rope: for d = 2, row n is rotated by R(positions[n])"""
    check(student, "rope-d2")


@graded("E.4", "rope")
def test_rope_frequencies(student):
    """rope: pair (2i, 2i+1) turns at frequency base**(-2i/d) (d = 8, base 100)"""
    check(student, "rope-d8")


@graded("E.5", "rope")
def test_rope_batch(student):
    """rope: batch and head axes share the positions"""
    check(student, "rope-batch", batched=True)


@graded("E.6", "rope", hidden=True)
def test_rope_real_positions(student):
    """rope: real-valued positions (0.5, -1.25, 3.7, 10)"""
    check(student, "rope-real-positions")


@graded("E.7", "rope", hidden=True)
def test_rope_dis11(student):
    """rope: Dis 11 Q1 RoPE(x_n, n) = R(nθ) x_n for n = 1..5"""
    check(student, "rope-dis11")


@graded("E.8", "rope", hidden=True)
def test_rope_offsets(student):
    """rope: position offsets as in cached decoding (positions 7..10, and 12)"""
    check(student, "rope-offset", "rope-one-token")


# ---- random shapes (cases drawn by autograder/suite/random_cases.py) -------------------------------------


@graded("E.9", "rotation_matrix", hidden=True)
def test_rotation_random_angles(student):
    """rotation_matrix: random angles from -4π to 4π"""
    check(student, "random-rotation-1", "random-rotation-2", "random-rotation-3",
          "random-rotation-4", "random-rotation-5", "random-rotation-6", shapes=True)


@graded("E.10", "rope", hidden=True)
def test_rope_random_shapes(student):
    """rope: random shapes (0 to 3 leading axes, even d from 2 to 16, real positions, several bases)"""
    check(student, "random-rope-1", "random-rope-2", "random-rope-3",
          "random-rope-4", "random-rope-5", "random-rope-6", batched=True, shapes=True)
