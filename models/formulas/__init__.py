"""Certified formulas: the CNF encodings a backend solves and a checker re-derives alike."""
