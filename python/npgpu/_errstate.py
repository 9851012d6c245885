"""NumPy's floating-point error state under npgpu's names: seterr, geterr, errstate, seterrcall, geterrcall.

npgpu's own kernels (both backends) neither warn nor raise on floating-point errors, as CuPy's don't: a
division by zero gives inf, an invalid operation NaN, an overflow inf, exactly as IEEE 754 says, whatever the
state. The state is NumPy's own, so it still governs the NumPy code around npgpu calls and the computations
npgpu hands to NumPy. These names exist so that code written for NumPy's namespace (``with np.errstate(
divide="ignore"): ...``) runs unchanged under ``import npgpu as np``; docs/numpy-differences.md lists the
difference.
"""
import contextlib

import numpy as np

__all__ = ["seterr", "geterr", "errstate", "seterrcall", "geterrcall"]

_UNSET = object()  # errstate's `call` may be None, which is a setting of its own


def seterr(all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002 (NumPy's parameter name)
    """Set how floating-point errors are handled, as numpy.seterr; npgpu's kernels ignore the setting.

    Parameters
    ----------
    all, divide, over, under, invalid : {'ignore', 'warn', 'raise', 'call', 'print', 'log'}, optional
        As numpy.seterr: `all` sets every category, the others one each; None leaves a category as it is.

    Returns
    -------
    dict
        The previous settings (pass them back as keywords to restore them).

    Raises
    ------
    ValueError
        A setting NumPy does not know (as NumPy).

    See Also
    --------
    geterr, errstate, numpy.seterr

    Examples
    --------
    >>> old = npgpu.seterr(divide="ignore")
    >>> npgpu.geterr()["divide"]
    'ignore'
    >>> npgpu.divide(npgpu.asarray([1.0], device="cpu"), 0.0)  # inf, and never a warning from npgpu
    Array([inf])
    >>> _ = npgpu.seterr(**old)
    """
    return np.seterr(all=all, divide=divide, over=over, under=under, invalid=invalid)


def geterr():
    """The current floating-point error settings, as numpy.geterr (NumPy's; npgpu's kernels ignore them).

    Returns
    -------
    dict
        'divide', 'over', 'under' and 'invalid', each one of 'ignore', 'warn', 'raise', 'call', 'print', 'log'.

    Raises
    ------
    None

    See Also
    --------
    seterr, errstate, numpy.geterr

    Examples
    --------
    >>> sorted(npgpu.geterr())
    ['divide', 'invalid', 'over', 'under']
    """
    return np.geterr()


def seterrcall(func):
    """Set the function (or object with a ``write`` method) that the 'call' ('log') setting uses, as
    numpy.seterrcall.

    Parameters
    ----------
    func : callable, object with a write method, or None
        As numpy.seterrcall.

    Returns
    -------
    callable, object or None
        The previous one.

    Raises
    ------
    TypeError
        `func` neither callable nor with a ``write`` method (as NumPy).

    See Also
    --------
    geterrcall, seterr, numpy.seterrcall

    Examples
    --------
    >>> old = npgpu.seterrcall(print)
    >>> npgpu.geterrcall() is print
    True
    >>> _ = npgpu.seterrcall(old)
    """
    return np.seterrcall(func)


def geterrcall():
    """The function the 'call' setting uses, as numpy.geterrcall.

    Returns
    -------
    callable, object or None
        As numpy.geterrcall.

    Raises
    ------
    None

    See Also
    --------
    seterrcall, numpy.geterrcall

    Examples
    --------
    >>> npgpu.geterrcall() is None or callable(npgpu.geterrcall()) or hasattr(npgpu.geterrcall(), "write")
    True
    """
    return np.geterrcall()


class errstate(contextlib.ContextDecorator):  # noqa: N801 (NumPy's name)
    """Floating-point error settings for a block (or a decorated function), as numpy.errstate; npgpu's kernels
    ignore them.

    Parameters
    ----------
    call : callable or object with a write method, optional
        As numpy.errstate: the 'call' setting's function for the block.
    all, divide, over, under, invalid : {'ignore', 'warn', 'raise', 'call', 'print', 'log'}, optional
        As :func:`seterr`, for the block.

    Returns
    -------
    errstate
        A context manager (and decorator) that sets NumPy's state on entry and restores it on exit.

    Raises
    ------
    ValueError
        A setting NumPy does not know, on entering the block (as NumPy).

    See Also
    --------
    seterr, geterr, numpy.errstate

    Examples
    --------
    >>> with npgpu.errstate(divide="ignore", invalid="ignore"):
    ...     npgpu.divide(npgpu.asarray([1.0, 0.0], device="cpu"), 0.0)
    Array([inf, nan])
    >>> npgpu.geterr()["divide"]  # restored
    'warn'
    """

    def __init__(self, *, call=_UNSET, all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002
        self._kwargs = {"all": all, "divide": divide, "over": over, "under": under, "invalid": invalid}
        if call is not _UNSET:
            self._kwargs["call"] = call
        self._states = []

    def __enter__(self):
        state = np.errstate(**self._kwargs)
        state.__enter__()
        self._states.append(state)
        return self

    def __exit__(self, *exc_info):
        return self._states.pop().__exit__(*exc_info)
