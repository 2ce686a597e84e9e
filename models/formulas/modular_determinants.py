"""Exact integer determinants by modular arithmetic, for the independent count checker.

:mod:`trailkit.models.checking.best_formula` needs the determinants of many reduced
Laplacians at once, exactly. It takes them modulo several primes below ``2^31`` (each
checked prime by trial division, so nothing is trusted) by division-free elimination,
vectorised over a stack of matrices, and joins the residues by the Chinese remainder
theorem: a method of its own, unlike the counter's fraction-free (Bareiss) elimination
over the integers, so a mistake in one is not repeated in the other.

>>> import numpy as np
>>> primes = primes_over(4 * 10**6)
>>> lap = np.array([[[2, -1], [-1, 2]], [[3, 0], [0, -5]]], dtype=np.int64)
>>> [nearest_by_crt([int(d[i]) for d in (determinants_mod(lap, p) for p in primes)], primes)
...  for i in range(2)]
[3, -15]
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["determinants_mod", "nearest_by_crt", "primes_over"]


def primes_over(limit_sq: int) -> list[int]:
    """Primes below 2^31, descending (each checked by trial division), whose product
    squared exceeds ``limit_sq``."""
    primes: list[int] = []
    product, candidate = 1, 2**31 - 1
    while not primes or product * product <= limit_sq:
        if all(candidate % q for q in range(3, math.isqrt(candidate) + 1, 2)):
            primes.append(candidate)
            product *= candidate
        candidate -= 2
    return primes


def determinants_mod(lap: np.ndarray, p: int) -> np.ndarray:
    """Every matrix's determinant modulo the prime ``p``: elimination without division
    (row_i·pivot − f·row_k, each product below 2^62), the pivots' scaling undone at the
    end by one inverse (Fermat)."""
    a = lap % p
    k, size = a.shape[0], a.shape[1]
    det, scale, rows = np.ones(k, dtype=np.int64), np.ones(k, dtype=np.int64), np.arange(k)
    for c in range(size):
        nonzero = a[:, c:, c] != 0
        has = nonzero.any(axis=1)
        r = c + nonzero.argmax(axis=1)
        swap = has & (r != c)
        if swap.any():  # fancy indexing copies: the right-hand side is read first
            a[rows[swap], c], a[rows[swap], r[swap]] = a[rows[swap], r[swap]], a[rows[swap], c]
            det[swap] = (p - det[swap]) % p
        pivot = np.where(has, a[:, c, c], 1)
        det = np.where(has, det * pivot % p, 0)
        below = a[:, c + 1:, c:]
        a[:, c + 1:, c:] = (below * pivot[:, None, None]
                            - below[:, :, :1] * a[:, c:c + 1, c:]) % p
        for _ in range(size - c - 1):
            scale = scale * pivot % p
    inverse, base, e = np.ones(k, dtype=np.int64), scale, p - 2
    while e:
        if e & 1:
            inverse = inverse * base % p
        base, e = base * base % p, e >> 1
    return det * inverse % p


def nearest_by_crt(residues: list[int], primes: list[int]) -> int:
    """The integer of least absolute value with these residues (the Chinese remainder
    theorem; the product of the primes exceeds twice its bound)."""
    value, modulus = 0, 1
    for r, p in zip(residues, primes, strict=True):
        step = (r - value) * pow(modulus, -1, p) % p
        value, modulus = value + modulus * step, modulus * p
    return value - modulus if value > modulus // 2 else value
