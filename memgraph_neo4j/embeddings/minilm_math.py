"""Numerics of the numpy MiniLM runtime that numpy lacks: exact (erf) GELU and an in-place LayerNorm."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["gelu_", "layer_norm_"]

# erf(z) = z * P(z^2) / Q(z^2) on |z| <= 4 (erf is +-1 in float32 beyond): the float32
# rational approximation used by Eigen/XLA; max abs error vs math.erf ~4e-7 in float32.
_ERF_P = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
          -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
          -1.60960333262415e-02)
_ERF_Q = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
          -7.37332916720468e-03, -1.42647390514189e-02)
# GELU wants 0.5 * (1 + erf(x / sqrt2)). Substituting z = x / sqrt2 into the polynomials
# (coefficient of z^2k scaled by 2^-k) and folding the 0.5 in saves three array passes.
_GELU_CLIP = np.float32(4.0 * math.sqrt(2.0))
_GELU_P = tuple(np.float32(c * 0.5 ** (len(_ERF_P) - 1 - k) * 0.5 / math.sqrt(2.0))
                for k, c in enumerate(_ERF_P))
_GELU_Q = tuple(np.float32(c * 0.5 ** (len(_ERF_Q) - 1 - k)) for k, c in enumerate(_ERF_Q))


def _horner(s: np.ndarray, coeffs: tuple[np.float32, ...], out: np.ndarray) -> np.ndarray:
    np.multiply(s, coeffs[0], out=out)
    for c in coeffs[1:-1]:
        out += c
        out *= s
    out += coeffs[-1]
    return out


def gelu_(x: np.ndarray, scratch: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Exact (erf) GELU, 0.5 * x * (1 + erf(x / sqrt2)) as in BERT/torch, in place.

    numpy has no erf (and scipy is not a dependency). `scratch` = three float32 arrays
    shaped like x; callers pass cache-sized blocks so all ~25 passes hit L2, not RAM.
    """
    a, s, p = scratch if scratch is not None else tuple(np.empty_like(x) for _ in range(3))
    np.clip(x, -_GELU_CLIP, _GELU_CLIP, out=a)
    np.multiply(a, a, out=s)
    _horner(s, _GELU_P, out=p)
    p *= a  # p = 0.5 * x * P; `a` is free from here on and receives Q
    p /= _horner(s, _GELU_Q, out=a)
    p += 0.5
    x *= p
    return x


def layer_norm_(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis of a 2-D array, in place (biased variance, like torch)."""
    x -= x.mean(axis=-1, keepdims=True)
    var = np.einsum("ij,ij->i", x, x) / x.shape[-1]
    x *= (1.0 / np.sqrt(var + eps))[:, None]
    x *= w
    x += b
    return x
