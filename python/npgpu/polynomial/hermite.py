"""numpy.polynomial.hermite, Hermite series (physicists'), on npgpu arrays: evaluation, pseudo-Vandermonde
matrices and fits run where the points are; the coefficient functions are NumPy's, on host copies (see
npgpu.polynomial)."""
from npgpu.polynomial._families import namespace as _namespace

globals().update(_namespace("hermite"))
__all__ = sorted(n for n in _namespace("hermite") if not n.startswith("_"))
