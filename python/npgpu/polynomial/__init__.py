"""numpy.polynomial on npgpu arrays: ``npgpu.polynomial.Polynomial.fit(x, y, 3)``,
``npgpu.polynomial.polynomial.polyval(x, c)``.

The six families (polynomial, chebyshev, legendre, laguerre, hermite, hermite_e) with NumPy's names. What
touches the sample points runs where they are: evaluation (``polyval``, ``chebval``, ..., their 2-D and 3-D
forms and grids, ``polyvalfromroots``), pseudo-Vandermonde matrices (``*vander``) and least-squares fits
(``*fit``, through npgpu.linalg.lstsq). npgpu.Array in, npgpu.Array out on its device; NumPy (array_like) in,
NumPy out. The functions of coefficients alone (``polyadd``, ``chebder``, ``legroots``, ...) are NumPy's own,
run on host copies: coefficient arrays are short.

The classes (``Polynomial``, ``Chebyshev``, ...) are NumPy's, subclassed so that calling one on an
npgpu.Array, and ``fit`` to npgpu.Arrays, run on the device; their coefficients stay a NumPy array on the host.

Examples
--------
>>> x = npgpu.asarray(np.linspace(0.0, 1.0, 50), device="cpu")
>>> p = npgpu.polynomial.Polynomial.fit(x, 1.0 + 2.0 * x - x ** 2, 2)
>>> np.round(p.convert().coef, 6) + 0.0
array([ 1.,  2., -1.])
>>> type(p(x)).__name__
'Array'
"""
from numpy.polynomial import polyutils, set_default_printstyle

from npgpu.polynomial import chebyshev, hermite, hermite_e, laguerre, legendre, polynomial
from npgpu.polynomial._families import CLASSES as _CLASSES

Polynomial = _CLASSES["Polynomial"]
Chebyshev = _CLASSES["Chebyshev"]
Legendre = _CLASSES["Legendre"]
Laguerre = _CLASSES["Laguerre"]
Hermite = _CLASSES["Hermite"]
HermiteE = _CLASSES["HermiteE"]

__all__ = ["set_default_printstyle", "polynomial", "Polynomial", "chebyshev", "Chebyshev", "legendre", "Legendre",
           "hermite", "Hermite", "hermite_e", "HermiteE", "laguerre", "Laguerre", "polyutils"]
