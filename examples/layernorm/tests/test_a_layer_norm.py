"""Part A: layer normalization. Points: the homework's homework.py (POINTS)."""

from __future__ import annotations

from autograder.api import check, graded


@graded("A.1", "layer_norm")
def test_layer_norm_rows(student):
    """layer_norm: each row normalised over its features, then scaled by gamma and shifted by beta"""
    check(student, "ln-rows", "ln-one-row")


@graded("A.2", "layer_norm")
def test_layer_norm_leading_axes(student):
    """layer_norm: any number of leading axes, normalised over the last one"""
    check(student, "ln-leading-axes", "ln-four-axes")


@graded("A.3", "layer_norm", hidden=True)
def test_layer_norm_eps(student):
    """layer_norm: eps inside the square root (a large eps, a variance smaller than eps)"""
    check(student, "ln-large-eps", "ln-small-scale")


@graded("A.4", "layer_norm", hidden=True)
def test_layer_norm_offset_and_square(student):
    """layer_norm: rows far from zero, and a square input"""
    check(student, "ln-offset", "ln-square")
