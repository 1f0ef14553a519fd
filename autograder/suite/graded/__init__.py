"""The graded test suite (run only by the grading engine, never by students)."""
