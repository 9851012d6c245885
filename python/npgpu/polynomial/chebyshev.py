"""numpy.polynomial.chebyshev, Chebyshev series, on npgpu arrays: evaluation, pseudo-Vandermonde
matrices and fits run where the points are; the coefficient functions are NumPy's, on host copies (see
npgpu.polynomial)."""
from npgpu.polynomial._families import namespace as _namespace

_names = _namespace("chebyshev")
globals().update(_names)
__all__ = sorted(_names)
del _names
