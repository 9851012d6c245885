"""npgpu.emath: numpy.emath's functions, whose real inputs outside the real domain give complex results.

``npgpu.emath.sqrt(-1)`` is ``1j`` where ``npgpu.sqrt(-1)`` is NaN. As in NumPy, the whole input turns complex
when any element needs it, so the output dtype depends on the values: finding out reads one flag back from the
device (a reduction and a synchronisation per call). Complex inputs go straight to the elementwise functions.
NumPy inputs give NumPy results, npgpu.Arrays npgpu.Arrays on their device, as the elementwise functions do.
"""
import numpy as np

from npgpu import _array, _elementwise, _reduce

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

# numpy.lib.scimath's choice: these real types become complex64, every other real type complex128
_TO_COMPLEX64 = {np.dtype(t) for t in (np.float32, np.int8, np.int16, np.uint8, np.uint16)}


def _array_of(x):
    return x if isinstance(x, _array.Array) else np.asarray(x)


def _any(mask):
    return bool(_reduce.any(mask))


def _complex(x):
    return _elementwise.astype(x, np.complex64 if x.dtype in _TO_COMPLEX64 else np.complex128)


def _negative_to_complex(x):
    """x, made complex where any element is below zero (a real domain error for sqrt and the logs)."""
    x = _array_of(x)
    if x.dtype.kind in "biuf" and _any(_elementwise.less(x, 0)):
        return _complex(x)
    return x


def _outside_unit_to_complex(x):
    """x, made complex where any element has |x| > 1 (arccos, arcsin, arctanh)."""
    x = _array_of(x)
    if x.dtype.kind in "biuf" and _any(_elementwise.greater(_elementwise.absolute(x), 1)):
        return _complex(x)
    return x


def _scalar_out(result, *inputs):
    # NumPy's rule: scalars in, a NumPy scalar out
    if isinstance(result, np.ndarray) and result.ndim == 0 and all(np.ndim(x) == 0 for x in inputs):
        return result[()]
    return result


def sqrt(x):
    """The square root, complex for negative inputs, as numpy.emath.sqrt.

    Parameters
    ----------
    x : npgpu.Array, array_like or scalar
        Input values.

    Returns
    -------
    npgpu.Array, numpy.ndarray or scalar
        Real where every element is >= 0 (or complex input), complex otherwise (complex64 for float32 and small
        integer inputs, complex128 for the rest, as NumPy).

    Raises
    ------
    TypeError
        An input the elementwise functions refuse (strings, objects).

    See Also
    --------
    npgpu.sqrt, numpy.emath.sqrt

    Examples
    --------
    >>> npgpu.emath.sqrt(npgpu.asarray([4.0, -1.0], device="cpu"))
    Array([2.+0.j, 0.+1.j])
    >>> npgpu.emath.sqrt(-4)
    np.complex128(2j)
    """
    return _scalar_out(_elementwise.sqrt(_negative_to_complex(x)), x)


def log(x):
    """The natural logarithm, complex for negative inputs, as numpy.emath.log.

    Parameters
    ----------
    x : npgpu.Array, array_like or scalar
        Input values.

    Returns
    -------
    npgpu.Array, numpy.ndarray or scalar
        As :func:`sqrt`: complex when any element is negative. log(0) is -inf.

    Raises
    ------
    TypeError
        An input the elementwise functions refuse.

    See Also
    --------
    npgpu.log, numpy.emath.log

    Examples
    --------
    >>> npgpu.emath.log(npgpu.asarray([1.0, -1.0], device="cpu"))
    Array([0.+0.j        , 0.+3.14159265j])
    """
    return _scalar_out(_elementwise.log(_negative_to_complex(x)), x)


def log2(x):
    """The base-2 logarithm, complex for negative inputs, as numpy.emath.log2.

    Parameters
    ----------
    x : npgpu.Array, array_like or scalar
        Input values.

    Returns
    -------
    npgpu.Array, numpy.ndarray or scalar
        As :func:`log`.

    Raises
    ------
    TypeError
        An input the elementwise functions refuse.

    See Also
    --------
    npgpu.log2, numpy.emath.log2

    Examples
    --------
    >>> npgpu.emath.log2(npgpu.asarray([8.0], device="cpu"))
    Array([3.])
    """
    return _scalar_out(_elementwise.log2(_negative_to_complex(x)), x)


def log10(x):
    """The base-10 logarithm, complex for negative inputs, as numpy.emath.log10.

    Parameters
    ----------
    x : npgpu.Array, array_like or scalar
        Input values.

    Returns
    -------
    npgpu.Array, numpy.ndarray or scalar
        As :func:`log`.

    Raises
    ------
    TypeError
        An input the elementwise functions refuse.

    See Also
    --------
    npgpu.log10, numpy.emath.log10

    Examples
    --------
    >>> npgpu.emath.log10(npgpu.asarray([100.0, -10.0], device="cpu"))
    Array([2.+0.j        , 1.+1.36437635j])
    """
    return _scalar_out(_elementwise.log10(_negative_to_complex(x)), x)


def logn(n, x):
    """The logarithm of x in base n, complex where either has negative values, as numpy.emath.logn.

    Parameters
    ----------
    n : npgpu.Array, array_like or scalar
        The base(s).
    x : npgpu.Array, array_like or scalar
        Input values (broadcast with `n`).

    Returns
    -------
    npgpu.Array, numpy.ndarray or scalar
        ``log(x) / log(n)``, each log as :func:`log`.

    Raises
    ------
    TypeError
        An input the elementwise functions refuse.
    ValueError
        Shapes that do not broadcast.

    See Also
    --------
    log, numpy.emath.logn

    Examples
    --------
    >>> npgpu.emath.logn(2, npgpu.asarray([8.0, 1024.0], device="cpu"))
    Array([ 3., 10.])
    """
    num = _elementwise.log(_negative_to_complex(x))
    den = _elementwise.log(_negative_to_complex(n))
    return _scalar_out(_elementwise.divide(num, den), n, x)


def power(x, p):
    """x to the power p, complex for negative x, as numpy.emath.power; negative integer powers of integers
    are taken in floating point.

    Parameters
    ----------
    x : npgpu.Array, array_like or scalar
        Bases.
    p : npgpu.Array, array_like or scalar
        Exponents (broadcast with `x`).

    Returns
    -------
    npgpu.Array, numpy.ndarray or scalar
        Complex when any base is negative; float where an integer exponent is negative.

    Raises
    ------
    TypeError
        An input the elementwise functions refuse.
    ValueError
        Shapes that do not broadcast.

    See Also
    --------
    npgpu.power, numpy.emath.power

    Examples
    --------
    >>> npgpu.emath.power(npgpu.asarray([-4.0, 4.0], device="cpu"), 0.5).dtype
    dtype('complex128')
    >>> npgpu.emath.power(npgpu.asarray([2, 4], device="cpu"), -1)
    Array([0.5 , 0.25])
    """
    base = _negative_to_complex(x)
    expo = _array_of(p)
    if expo.dtype.kind in "biu" and _any(_elementwise.less(expo, 0)):
        expo = _elementwise.multiply(expo, 1.0)  # NumPy's fix: negative integer powers in floating point
    return _scalar_out(_elementwise.power(base, expo), x, p)


def arccos(x):
    """The inverse cosine, complex where any |x| > 1, as numpy.emath.arccos.

    Parameters
    ----------
    x : npgpu.Array, array_like or scalar
        Input values.

    Returns
    -------
    npgpu.Array, numpy.ndarray or scalar
        Real where every element lies in [-1, 1] (or complex input), complex otherwise.

    Raises
    ------
    TypeError
        An input the elementwise functions refuse.

    See Also
    --------
    npgpu.arccos, numpy.emath.arccos

    Examples
    --------
    >>> npgpu.emath.arccos(npgpu.asarray([1.0], device="cpu"))
    Array([0.])
    >>> complex(npgpu.emath.arccos(2.0))
    -1.3169578969248166j
    """
    return _scalar_out(_elementwise.arccos(_outside_unit_to_complex(x)), x)


def arcsin(x):
    """The inverse sine, complex where any |x| > 1, as numpy.emath.arcsin.

    Parameters
    ----------
    x : npgpu.Array, array_like or scalar
        Input values.

    Returns
    -------
    npgpu.Array, numpy.ndarray or scalar
        As :func:`arccos`.

    Raises
    ------
    TypeError
        An input the elementwise functions refuse.

    See Also
    --------
    npgpu.arcsin, numpy.emath.arcsin

    Examples
    --------
    >>> npgpu.emath.arcsin(npgpu.asarray([0.0, 2.0], device="cpu"))
    Array([0.        +0.j       , 1.57079633+1.3169579j])
    """
    return _scalar_out(_elementwise.arcsin(_outside_unit_to_complex(x)), x)


def arctanh(x):
    """The inverse hyperbolic tangent, complex where any |x| > 1, as numpy.emath.arctanh.

    Parameters
    ----------
    x : npgpu.Array, array_like or scalar
        Input values; +-1 give +-inf.

    Returns
    -------
    npgpu.Array, numpy.ndarray or scalar
        As :func:`arccos`.

    Raises
    ------
    TypeError
        An input the elementwise functions refuse.

    See Also
    --------
    npgpu.arctanh, numpy.emath.arctanh

    Examples
    --------
    >>> npgpu.emath.arctanh(npgpu.asarray([0.5], device="cpu"))
    Array([0.54930614])
    """
    return _scalar_out(_elementwise.arctanh(_outside_unit_to_complex(x)), x)
