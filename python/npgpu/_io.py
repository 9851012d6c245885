"""Files and text of npgpu arrays, as NumPy's: save/load (.npy), savez/savez_compressed (.npz, loaded lazily),
savetxt/loadtxt/genfromtxt (text), and printing (array2string, array_repr, array_str and the print options).

Writing copies an npgpu.Array to the host once and hands it to NumPy's writer, so the files are the bytes NumPy
writes for the same data. Reading is NumPy's reader on the host, then one upload to ``device`` (the default
device when None). npgpu.Array's repr and str go through NumPy's printing, so NumPy's print options (set here or
through NumPy) apply to them.

The writers also take NumPy arrays and array_like data, written as NumPy writes them. A path that cannot be
opened raises NumPy's OSError (FileNotFoundError ...).
"""
import collections.abc
import contextlib
import os

import numpy as np

from npgpu import _array, _runtime

__all__ = ["save", "load", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt", "array2string",
           "array_repr", "array_str", "set_printoptions", "get_printoptions", "printoptions",
           "format_float_positional", "format_float_scientific", "binary_repr", "base_repr", "fromfile",
           "fromstring", "fromregex"]

def _is_path(f):
    return isinstance(f, (str, bytes, os.PathLike))


def _check_file(name, f, attr):
    """`f` as a path (str) or a file object with method `attr`; TypeError otherwise."""
    if _is_path(f):
        p = os.fspath(f)
        return os.fsdecode(p)
    if callable(getattr(f, attr, None)):
        return f
    raise TypeError(f"npgpu.{name}: file must be a path (str, bytes or os.PathLike) or a file object with a "
                    f"{attr}() method, not {type(f).__name__}")


def _check_source(name, f):
    """A text source for loadtxt/genfromtxt: a path, a file object, a list/tuple of str or bytes lines, or an
    iterator of lines."""
    if _is_path(f):
        return os.fsdecode(os.fspath(f))
    if callable(getattr(f, "read", None)) or isinstance(f, collections.abc.Iterator):
        return f
    if isinstance(f, (list, tuple)) and all(isinstance(x, (str, bytes)) for x in f):
        return list(f)
    raise TypeError(f"npgpu.{name}: fname must be a path, a file object, a list of str or bytes lines or an "
                    f"iterator of lines, not {type(f).__name__}")


def _host(arr):
    """What NumPy writes for `arr`: an npgpu.Array's host copy (one transfer), F-ordered where `arr` is F- but
    not C-contiguous, as NumPy writes a NumPy array of that layout; other data as it is."""
    if not isinstance(arr, _array.Array):
        return arr
    shape, strides = arr.shape, arr.strides
    if _contiguous(shape[::-1], strides[::-1], arr.itemsize) or not _contiguous(shape, strides, arr.itemsize):
        return arr.get()
    return arr.T.get().T  # NumPy writes an F- but not C-contiguous array in Fortran order


def _contiguous(shape, strides, itemsize):
    """Whether a layout is contiguous with the first dimension varying fastest, by NumPy's rule (dimensions of
    length 1 are skipped; an empty array is contiguous)."""
    if 0 in shape:
        return True
    expected = itemsize
    for n, st in zip(shape, strides):
        if n != 1:
            if st != expected:
                return False
            expected *= n
    return True


def _upload(name, x, device):
    if isinstance(x, np.ma.MaskedArray):
        raise NotImplementedError(f"npgpu.{name}: npgpu has no masked arrays; use numpy.{name}")
    if x.dtype.fields is not None or x.dtype.kind in "OUSVMm":
        raise TypeError(f"npgpu.{name}: npgpu arrays cannot hold dtype {x.dtype} (no structured, object, string "
                        f"or datetime dtypes); use numpy.{name}")
    return _array.asarray(x, device=device)


def save(file, arr, allow_pickle=True):
    """Save an array to a binary file in NumPy ``.npy`` format, as numpy.save.

    An npgpu.Array is copied to the host once and written by numpy.save: the file holds the bytes NumPy writes
    for the same data (Fortran order where the array is F- but not C-contiguous, as NumPy). Other data is
    written as numpy.save writes it.

    Parameters
    ----------
    file : str, bytes, os.PathLike or file object
        Where to write. ``.npy`` is appended to a path that does not end with it.
    arr : npgpu.Array or array_like
        The array to save (an npgpu.Array on any device).
    allow_pickle : bool, optional
        As numpy.save (npgpu arrays never hold objects, so it has no effect on them).

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `file` is neither a path nor a file object.
    OSError
        The path cannot be opened for writing.

    See Also
    --------
    load, savez, savez_compressed, numpy.save

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, "a.npy")
    ...     npgpu.save(path, npgpu.asarray([1.0, 2.0], device="cpu"))
    ...     npgpu.load(path, device="cpu")
    Array([1., 2.])
    """
    f = _check_file("save", file, "write")
    host = _host(arr)
    np.save(f, host, allow_pickle=allow_pickle)


def _hosts(args, kwds):
    hosts = [_host(a) for a in args]
    named = {k: _host(v) for k, v in kwds.items()}
    return hosts, named


def savez(file, *args, allow_pickle=True, **kwds):
    """Save several arrays into one uncompressed ``.npz`` file, as numpy.savez.

    Each array is copied to the host once and the file is written by numpy.savez.

    Parameters
    ----------
    file : str, bytes, os.PathLike or file object
        Where to write; ``.npz`` is appended to a path that does not end with it.
    *args : npgpu.Array or array_like
        Arrays saved under the names ``arr_0``, ``arr_1``, ...
    allow_pickle : bool, optional
        As numpy.savez (no effect on npgpu arrays, which never hold objects).
    **kwds : npgpu.Array or array_like
        Arrays saved under their keyword names.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `file` is neither a path nor a file object.
    ValueError
        A keyword name repeats a positional one (``arr_0`` ...), as numpy.savez.
    OSError
        The path cannot be opened for writing.

    See Also
    --------
    savez_compressed, load, numpy.savez

    Examples
    --------
    >>> import os, tempfile
    >>> x = npgpu.asarray([1, 2, 3], device="cpu")
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, "data.npz")
    ...     npgpu.savez(path, x, y=x * 2)
    ...     with npgpu.load(path, device="cpu") as data:
    ...         print(sorted(data), data["y"])
    ['arr_0', 'y'] [2 4 6]
    """
    f = _check_file("savez", file, "write")
    hosts, named = _hosts(args, kwds)
    np.savez(f, *hosts, allow_pickle=allow_pickle, **named)


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    """Save several arrays into one compressed ``.npz`` file, as numpy.savez_compressed.

    Each array is copied to the host once and the file is written by numpy.savez_compressed.

    Parameters
    ----------
    file : str, bytes, os.PathLike or file object
        Where to write; ``.npz`` is appended to a path that does not end with it.
    *args : npgpu.Array or array_like
        Arrays saved under the names ``arr_0``, ``arr_1``, ...
    allow_pickle : bool, optional
        As numpy.savez_compressed (no effect on npgpu arrays).
    **kwds : npgpu.Array or array_like
        Arrays saved under their keyword names.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `file` is neither a path nor a file object.
    ValueError
        A keyword name repeats a positional one (``arr_0`` ...).
    OSError
        The path cannot be opened for writing.

    See Also
    --------
    savez, load, numpy.savez_compressed

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     path = os.path.join(d, "z.npz")
    ...     npgpu.savez_compressed(path, zeros=npgpu.zeros(4, device="cpu"))
    ...     with npgpu.load(path, device="cpu") as data:
    ...         data["zeros"]
    Array([0., 0., 0., 0.])
    """
    f = _check_file("savez_compressed", file, "write")
    hosts, named = _hosts(args, kwds)
    np.savez_compressed(f, *hosts, allow_pickle=allow_pickle, **named)


class NpzFile(collections.abc.Mapping):
    """The arrays of an ``.npz`` file, read lazily as numpy.lib.npyio.NpzFile: each lookup reads one array on
    the host and uploads it to the device given to :func:`load`.

    A mapping from names to npgpu.Arrays with ``files`` (the names), ``close()`` and use as a context
    manager (which closes it).

    Examples
    --------
    >>> import io
    >>> buf = io.BytesIO()
    >>> npgpu.savez(buf, a=npgpu.asarray([1, 2], device="cpu"))
    >>> _ = buf.seek(0)
    >>> data = npgpu.load(buf, device="cpu")
    >>> data.files, data["a"]
    (['a'], Array([1, 2]))
    """

    def __init__(self, npz, device):
        self._npz = npz
        self._device = device
        self.files = list(npz.files)

    def __getitem__(self, key):
        return _upload("load", self._npz[key], self._device)

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def __contains__(self, key):
        return key in self._npz

    def close(self):
        """Close the file (the arrays already read stay)."""
        self._npz.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        return "npgpu." + repr(self._npz)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *, max_header_size=10000,
         device=None):
    """Load arrays from ``.npy`` and ``.npz`` files onto a device, as numpy.load.

    NumPy reads the file on the host; the data is then uploaded to `device`. Memory mapping is refused:
    `mmap_mode` other than None raises NotImplementedError (an npgpu array cannot map a file).

    Parameters
    ----------
    file : str, bytes, os.PathLike or file object
        The file to read (a file object must support ``read`` and ``seek``).
    mmap_mode : None, optional
        Only None (see above).
    allow_pickle : bool, optional
        Whether pickled data may be read (default False, as NumPy): object arrays and pickle files. Object
        arrays cannot become npgpu arrays even then (TypeError); a pickle file's object is returned as is.
    fix_imports, encoding, max_header_size : optional
        As numpy.load (for Python 2 pickles and header checks).
    device : npgpu.Device, int or str, optional
        Where the arrays go; default the default device.

    Returns
    -------
    npgpu.Array or NpzFile or object
        The array of a ``.npy`` file; for an ``.npz`` file a lazy mapping (``npgpu._io.NpzFile``) from names
        to npgpu.Arrays, to be closed (or used in a ``with`` block); for a pickle file, its object.

    Raises
    ------
    TypeError
        `file` is neither a path nor a file object; the data's dtype cannot be held by npgpu arrays
        (structured, object, string).
    ValueError
        Pickled data with ``allow_pickle=False``; a file in no format numpy.load reads.
    NotImplementedError
        `mmap_mode` is not None.
    OSError
        The path cannot be opened (FileNotFoundError ...).

    See Also
    --------
    save, savez, loadtxt, numpy.load

    Examples
    --------
    >>> import io
    >>> buf = io.BytesIO()
    >>> npgpu.save(buf, npgpu.asarray([[1, 2], [3, 4]], dtype=np.int16, device="cpu"))
    >>> _ = buf.seek(0)
    >>> npgpu.load(buf, device="cpu")
    Array([[1, 2],
           [3, 4]], dtype=int16)
    """
    f = _check_file("load", file, "read")
    if mmap_mode is not None:
        raise NotImplementedError(f"npgpu.load: mmap_mode={mmap_mode!r} is not supported (npgpu arrays cannot map "
                                  "a file); use numpy.load(..., mmap_mode=...) for a memory map")
    out = np.load(f, allow_pickle=allow_pickle, fix_imports=fix_imports, encoding=encoding,
                  max_header_size=max_header_size)
    if isinstance(out, np.lib.npyio.NpzFile):
        return NpzFile(out, device)
    if isinstance(out, np.ndarray):
        return _upload("load", out, device)
    return out


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="", comments="# ",
            encoding=None):
    """Save a 0-, 1- or 2-D npgpu.Array to a text file, as numpy.savetxt.

    The array is copied to the host once and written by numpy.savetxt, so the text is NumPy's.

    Parameters
    ----------
    fname : str, bytes, os.PathLike or file object
        Where to write (a path ending in ``.gz`` is gzipped, as NumPy).
    X : npgpu.Array or array_like
        The data, 1-D (one value per line) or 2-D (one row per line).
    fmt, delimiter, newline, header, footer, comments, encoding : optional
        As numpy.savetxt.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        `fname` is neither a path nor a file object.
    ValueError
        `X` has more than 2 dimensions; a `fmt` that does not fit the columns (as NumPy).
    OSError
        The path cannot be opened for writing.

    See Also
    --------
    loadtxt, genfromtxt, numpy.savetxt

    Examples
    --------
    >>> import io
    >>> buf = io.StringIO()
    >>> npgpu.savetxt(buf, npgpu.asarray([[1, 2], [3, 4]], device="cpu"), fmt="%d", delimiter=",")
    >>> print(buf.getvalue(), end="")
    1,2
    3,4
    """
    f = _check_file("savetxt", fname, "write")
    host = _host(X)
    np.savetxt(f, host, fmt=fmt, delimiter=delimiter, newline=newline, header=header, footer=footer,
               comments=comments, encoding=encoding)


def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None, skiprows=0, usecols=None,
            unpack=False, ndmin=0, encoding=None, max_rows=None, *, quotechar=None, device=None):
    """Load data from a text file onto a device, as numpy.loadtxt.

    The text is parsed by numpy.loadtxt on the host, then the result is uploaded to `device` once.

    Parameters
    ----------
    fname : str, bytes, os.PathLike, file object, list of str or iterator of lines
        The text (a path ending in ``.gz`` or ``.bz2`` is decompressed, as NumPy).
    dtype, comments, delimiter, converters, skiprows, usecols, unpack, ndmin, encoding, max_rows, quotechar
        As numpy.loadtxt (`dtype` must be one npgpu arrays hold: no structured or string dtypes).
    device : npgpu.Device, int or str, optional
        Where the result goes; default the default device.

    Returns
    -------
    npgpu.Array
        The data (transposed with ``unpack=True``, so that it unpacks into columns as NumPy's).

    Raises
    ------
    TypeError
        `fname` is none of the sources above; a dtype npgpu arrays cannot hold.
    ValueError
        Text that does not parse, rows of different lengths, bad arguments (as numpy.loadtxt).
    OSError
        The path cannot be opened (FileNotFoundError ...).

    See Also
    --------
    genfromtxt, savetxt, load, numpy.loadtxt

    Examples
    --------
    >>> npgpu.loadtxt(["# x y", "1 2", "3 4"], device="cpu")
    Array([[1., 2.],
           [3., 4.]])
    >>> npgpu.loadtxt(["1,2,3", "4,5,6"], delimiter=",", usecols=(0, 2), dtype=np.int32, device="cpu")
    Array([[1, 3],
           [4, 6]], dtype=int32)
    """
    src = _check_source("loadtxt", fname)
    out = np.loadtxt(src, dtype=dtype, comments=comments, delimiter=delimiter, converters=converters,
                     skiprows=skiprows, usecols=usecols, unpack=unpack, ndmin=ndmin, encoding=encoding,
                     max_rows=max_rows, quotechar=quotechar)
    return _upload("loadtxt", out, device)


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, device=None):
    """Load raw binary or text data from a file onto a device, as numpy.fromfile.

    numpy.fromfile reads on the host, then the result is uploaded to `device` once. (A file written by
    ``Array.tofile`` or NumPy's ``tofile`` holds no shape or dtype: give both, as with NumPy.)

    Parameters
    ----------
    file : str, bytes, os.PathLike or file object
        The file (a file object is read from its current position).
    dtype : data-type, optional
        The items' dtype (default float64); one npgpu arrays hold.
    count : int, optional
        How many items to read; -1 (default) all.
    sep : str, optional
        '' (default): binary; otherwise the separator of a text file, as NumPy.
    offset : int, optional
        Bytes to skip first (binary only, as NumPy).
    device : npgpu.Device, int or str, optional
        Where the result goes; default the default device.

    Returns
    -------
    npgpu.Array
        One dimension.

    Raises
    ------
    TypeError
        `file` neither a path nor a file object; a dtype npgpu arrays cannot hold.
    ValueError
        Bad arguments or data (as numpy.fromfile).
    OSError
        The path cannot be opened (FileNotFoundError ...).

    See Also
    --------
    fromstring, frombuffer, load, numpy.fromfile

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "x.bin")
    >>> np.arange(4, dtype=np.int32).tofile(path)
    >>> npgpu.fromfile(path, dtype=np.int32, device="cpu")
    Array([0, 1, 2, 3], dtype=int32)
    """
    f = _check_file("fromfile", file, "read")
    return _upload("fromfile", np.fromfile(f, dtype=dtype, count=count, sep=sep, offset=offset), device)


def fromstring(string, dtype=float, count=-1, *, sep, device=None):
    """An array from numbers in a text string, as numpy.fromstring, uploaded to `device`.

    NumPy 2 reads text only (its binary mode is gone; use :func:`frombuffer` for bytes), so `sep` is required.

    Parameters
    ----------
    string : str or bytes
        The text.
    dtype : data-type, optional
        The items' dtype (default float64); one npgpu arrays hold.
    count : int, optional
        How many items to read; -1 (default) all.
    sep : str
        The separator between numbers (whitespace around it is ignored; ' ' means any whitespace).
    device : npgpu.Device, int or str, optional
        Where the result goes; default the default device.

    Returns
    -------
    npgpu.Array
        One dimension.

    Raises
    ------
    TypeError
        `string` neither str nor bytes; a dtype npgpu arrays cannot hold.
    ValueError
        An empty `sep` (binary mode) or text that does not parse (as NumPy).

    See Also
    --------
    fromfile, frombuffer, loadtxt, numpy.fromstring

    Examples
    --------
    >>> npgpu.fromstring("1, 2, 3.5", sep=",", device="cpu")
    Array([1. , 2. , 3.5])
    """
    if not isinstance(string, (str, bytes)):
        raise TypeError(f"npgpu.fromstring: string must be str or bytes, not {type(string).__name__}")
    if sep == "":
        raise ValueError("npgpu.fromstring: the binary mode of fromstring (sep='') is gone from NumPy 2; use "
                         "npgpu.frombuffer")
    return _upload("fromstring", np.fromstring(string, dtype=dtype, count=count, sep=sep), device)


def fromregex(file, regexp, dtype, encoding=None, *, device=None):
    """An array from the matches of a regular expression in a text file, as numpy.fromregex, uploaded once.

    Parameters
    ----------
    file : str, os.PathLike or file object
        The text file.
    regexp : str or compiled regular expression
        Each match makes one element, from the expression's one group.
    dtype : data-type
        The elements' dtype, one npgpu arrays hold; or NumPy's form, a structured dtype of one field (npgpu
        arrays hold no fields: the result is that field).
    encoding : str, optional
        As numpy.fromregex.
    device : npgpu.Device, int or str, optional
        Where the result goes; default the default device.

    Returns
    -------
    npgpu.Array
        One dimension.

    Raises
    ------
    TypeError
        `file` neither a path nor a file object; a structured dtype of several fields, or another dtype npgpu
        arrays cannot hold.
    ValueError
        Matches that do not convert to `dtype` (as NumPy).
    OSError
        The path cannot be opened.

    See Also
    --------
    loadtxt, genfromtxt, numpy.fromregex

    Examples
    --------
    >>> import io
    >>> npgpu.fromregex(io.StringIO("a=1 b=22 c=333"), r"=(\\d+)", np.int64, device="cpu")
    Array([  1,  22, 333])
    """
    f = _check_file("fromregex", file, "read")
    dt = np.dtype(dtype)
    if dt.names is not None and len(dt.names) != 1:
        raise TypeError(f"npgpu.fromregex: npgpu arrays hold no fields, and dtype {dt} has {len(dt.names)}; use "
                        "numpy.fromregex")
    field = dt.names[0] if dt.names is not None else "f0"
    one = dt if dt.names is not None else np.dtype([(field, dt)])  # numpy.fromregex wants a structured dtype
    out = np.fromregex(f, regexp, one, encoding=encoding)[field]
    return _upload("fromregex", np.ascontiguousarray(out), device)


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0, skip_footer=0, converters=None,
               missing_values=None, filling_values=None, usecols=None, names=None, excludelist=None,
               deletechars=None, replace_space="_", autostrip=False, case_sensitive=True, defaultfmt="f%i",
               unpack=None, usemask=False, loose=True, invalid_raise=True, max_rows=None, encoding=None, *,
               ndmin=0, device=None):
    """Load data from a text file, with missing values filled, onto a device, as numpy.genfromtxt.

    The text is parsed by numpy.genfromtxt on the host, then the result is uploaded to `device` once.

    Parameters
    ----------
    fname : str, bytes, os.PathLike, file object, list of str or iterator of lines
        The text.
    dtype, comments, delimiter, skip_header, skip_footer, converters, missing_values, filling_values, usecols
        As numpy.genfromtxt: missing entries become `filling_values` (NaN for floats by default).
    names, excludelist, deletechars, replace_space, autostrip, case_sensitive, defaultfmt, unpack, loose
        As numpy.genfromtxt; names that make a structured result raise TypeError (see below).
    usemask : bool, optional
        Only False: npgpu has no masked arrays.
    invalid_raise, max_rows, encoding, ndmin : optional
        As numpy.genfromtxt.
    device : npgpu.Device, int or str, optional
        Where the result goes; default the default device.

    Returns
    -------
    npgpu.Array
        The data.

    Raises
    ------
    TypeError
        `fname` is none of the sources above; a result npgpu arrays cannot hold (structured, as with
        ``names=True`` or ``dtype=None`` over mixed columns; strings).
    NotImplementedError
        ``usemask=True``.
    ValueError
        Rows of different lengths with ``invalid_raise=True``; bad arguments (as numpy.genfromtxt).
    OSError
        The path cannot be opened (FileNotFoundError ...).

    See Also
    --------
    loadtxt, savetxt, numpy.genfromtxt

    Examples
    --------
    >>> npgpu.genfromtxt(["1,,3", "4,5,"], delimiter=",", device="cpu")
    Array([[ 1., nan,  3.],
           [ 4.,  5., nan]])
    >>> npgpu.genfromtxt(["1,,3", "4,5,"], delimiter=",", filling_values=0, dtype=np.int64, device="cpu")
    Array([[1, 0, 3],
           [4, 5, 0]])
    """
    src = _check_source("genfromtxt", fname)
    if usemask:
        raise NotImplementedError("npgpu.genfromtxt: usemask=True is not supported (npgpu has no masked arrays); "
                                  "use numpy.genfromtxt")
    kwargs = {} if deletechars is None else {"deletechars": deletechars}
    out = np.genfromtxt(src, dtype=dtype, comments=comments, delimiter=delimiter, skip_header=skip_header,
                        skip_footer=skip_footer, converters=converters, missing_values=missing_values,
                        filling_values=filling_values, usecols=usecols, names=names, excludelist=excludelist,
                        replace_space=replace_space, autostrip=autostrip, case_sensitive=case_sensitive,
                        defaultfmt=defaultfmt, unpack=unpack, usemask=False, loose=loose,
                        invalid_raise=invalid_raise, max_rows=max_rows, encoding=encoding, ndmin=ndmin,
                        **kwargs)
    return _upload("genfromtxt", np.asarray(out), device)


def _printable(name, a):
    if isinstance(a, _array.Array):
        return a.get()
    if isinstance(a, np.ndarray):
        return a
    raise TypeError(f"npgpu.{name} takes an npgpu.Array (or a NumPy array), not {type(a).__name__}")


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ", prefix="", *,
                 formatter=None, threshold=None, edgeitems=None, sign=None, floatmode=None, suffix="",
                 legacy=None):
    """The text of an array's values, as numpy.array2string (the data is copied to the host once).

    Parameters
    ----------
    a : npgpu.Array or numpy.ndarray
        The array.
    max_line_width, precision, suppress_small, separator, prefix, formatter, threshold, edgeitems, sign
        As numpy.array2string; None means the current print options (:func:`get_printoptions`).
    floatmode, suffix, legacy : optional
        As numpy.array2string.

    Returns
    -------
    str
        The values, as NumPy prints them.

    Raises
    ------
    TypeError
        `a` is not an array; `separator`, `prefix` or `suffix` is not a str; option values of the wrong type
        (as NumPy).
    ValueError
        Option values out of range (as NumPy).

    See Also
    --------
    array_str, array_repr, set_printoptions, numpy.array2string

    Examples
    --------
    >>> npgpu.array2string(npgpu.asarray([1.0, 2.5, 3.0], device="cpu"), separator=", ")
    '[1. , 2.5, 3. ]'
    >>> npgpu.array2string(npgpu.asarray([0.12345], device="cpu"), precision=2)
    '[0.12]'
    """
    host = _printable("array2string", a)
    for key, value in (("separator", separator), ("prefix", prefix), ("suffix", suffix)):
        if not isinstance(value, str):
            raise TypeError(f"npgpu.array2string: {key} must be a str, not {type(value).__name__}")
    return np.array2string(host, max_line_width, precision, suppress_small, separator,
                           prefix, formatter=formatter, threshold=threshold, edgeitems=edgeitems, sign=sign,
                           floatmode=floatmode, suffix=suffix, legacy=legacy)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """The repr of an npgpu.Array, as numpy.array_repr and ``repr(arr)``: ``Array(...)``, with the device after
    the values for a GPU array.

    Parameters
    ----------
    arr : npgpu.Array or numpy.ndarray
        The array (a NumPy array gets NumPy's repr).
    max_line_width, precision, suppress_small : optional
        As numpy.array_repr; None means the current print options.

    Returns
    -------
    str
        ``repr(arr)`` when the options are None.

    Raises
    ------
    TypeError
        `arr` is not an array; option values of the wrong type (as NumPy).
    ValueError
        Option values out of range (as NumPy).

    See Also
    --------
    array_str, array2string, numpy.array_repr

    Examples
    --------
    >>> a = npgpu.asarray([1.0, 2.0 / 3.0], device="cpu")
    >>> npgpu.array_repr(a, precision=3)
    'Array([1.   , 0.667])'
    >>> npgpu.array_repr(a) == repr(a)
    True
    """
    host = _printable("array_repr", arr)
    # NumPy's text with "array" -> "Array" (same width, so continuation lines stay aligned), as Array.__repr__
    r = np.array_repr(host, max_line_width, precision, suppress_small)
    if not isinstance(arr, _array.Array):
        return r
    r = "Array" + r[5:]
    if not isinstance(arr.device, _runtime.HostDevice):
        r = r[:-1] + f", device='cuda:{arr.device.id}')"
    return r


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """The str of an array, as numpy.array_str and ``str(a)`` (the data is copied to the host once).

    Parameters
    ----------
    a : npgpu.Array or numpy.ndarray
        The array.
    max_line_width, precision, suppress_small : optional
        As numpy.array_str; None means the current print options.

    Returns
    -------
    str
        ``str(a)`` when the options are None.

    Raises
    ------
    TypeError
        `a` is not an array; option values of the wrong type (as NumPy).
    ValueError
        Option values out of range (as NumPy).

    See Also
    --------
    array_repr, array2string, numpy.array_str

    Examples
    --------
    >>> npgpu.array_str(npgpu.asarray([[1, 2], [3, 4]], device="cpu"))
    '[[1 2]\\n [3 4]]'
    """
    return np.array_str(_printable("array_str", a), max_line_width, precision, suppress_small)


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, suppress=None, nanstr=None,
                     infstr=None, formatter=None, sign=None, floatmode=None, *, legacy=None, override_repr=None):
    """Set how arrays print, as numpy.set_printoptions: the options are NumPy's own (npgpu.Array prints through
    NumPy), so they apply to npgpu and NumPy arrays alike.

    Parameters
    ----------
    precision, threshold, edgeitems, linewidth, suppress, nanstr, infstr, formatter, sign, floatmode
        As numpy.set_printoptions; None leaves an option as it is.
    legacy, override_repr : optional
        As numpy.set_printoptions.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        Option values of the wrong type (as NumPy).
    ValueError
        Option values out of range (as NumPy).

    See Also
    --------
    get_printoptions, printoptions, numpy.set_printoptions

    Examples
    --------
    >>> saved = npgpu.get_printoptions()
    >>> npgpu.set_printoptions(precision=2)
    >>> npgpu.asarray([1 / 3], device="cpu")
    Array([0.33])
    >>> npgpu.set_printoptions(**saved)
    """
    np.set_printoptions(precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth,
                        suppress=suppress, nanstr=nanstr, infstr=infstr, formatter=formatter, sign=sign,
                        floatmode=floatmode, legacy=legacy, override_repr=override_repr)


def get_printoptions():
    """The current print options, as numpy.get_printoptions (NumPy's, which npgpu.Array's printing follows).

    Returns
    -------
    dict
        The options by name (precision, threshold, edgeitems, linewidth, suppress, ...); pass it to
        :func:`set_printoptions` as keywords to restore them.

    Raises
    ------
    None

    See Also
    --------
    set_printoptions, printoptions, numpy.get_printoptions

    Examples
    --------
    >>> opts = npgpu.get_printoptions()
    >>> opts["threshold"]
    1000
    """
    return np.get_printoptions()


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """A context manager that sets print options for its block, as numpy.printoptions.

    Parameters
    ----------
    *args, **kwargs
        As :func:`set_printoptions`.

    Returns
    -------
    context manager
        It yields the options in force inside the block (a dict) and restores the previous ones on exit.

    Raises
    ------
    TypeError
        Option values of the wrong type, on entering the block (as NumPy).
    ValueError
        Option values out of range, on entering the block (as NumPy).

    See Also
    --------
    set_printoptions, get_printoptions, numpy.printoptions

    Examples
    --------
    >>> with npgpu.printoptions(precision=1):
    ...     print(npgpu.asarray([0.25, 2 / 3], device="cpu"))
    [0.2 0.7]
    """
    with np.printoptions(*args, **kwargs) as opts:
        yield opts


def _scalar(name, x):
    """A number for NumPy's scalar formatters: an npgpu.Array of one element becomes its NumPy scalar (one
    transfer); other arrays are refused as NumPy refuses them."""
    if isinstance(x, _array.Array):
        if x.size != 1:
            raise TypeError(f"npgpu.{name}: expected a scalar, got an npgpu.Array of shape {x.shape}")
        return x.get().reshape(())[()]
    return x


def format_float_positional(x, precision=None, unique=True, fractional=True, trim="k", sign=False, pad_left=None,
                            pad_right=None, min_digits=None):
    """A floating-point scalar in positional notation, as numpy.format_float_positional.

    Parameters
    ----------
    x : float, NumPy scalar or npgpu.Array of one element
        The value (an Array is read back once).
    precision, unique, fractional, trim, sign, pad_left, pad_right, min_digits : optional
        As numpy.format_float_positional.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        `x` not a number (as NumPy, which formats integers as floats), or an Array of more than one element.
    ValueError
        Inconsistent options (as NumPy).

    See Also
    --------
    format_float_scientific, array2string, numpy.format_float_positional

    Examples
    --------
    >>> npgpu.format_float_positional(npgpu.float32(0.1))
    '0.1'
    >>> npgpu.format_float_positional(npgpu.asarray(2.5, device="cpu"), precision=3, unique=False)
    '2.500'
    """
    return np.format_float_positional(_scalar("format_float_positional", x), precision, unique, fractional, trim,
                                      sign, pad_left, pad_right, min_digits)


def format_float_scientific(x, precision=None, unique=True, trim="k", sign=False, pad_left=None, exp_digits=None,
                            min_digits=None):
    """A floating-point scalar in scientific notation, as numpy.format_float_scientific.

    Parameters
    ----------
    x : float, NumPy scalar or npgpu.Array of one element
        The value (an Array is read back once).
    precision, unique, trim, sign, pad_left, exp_digits, min_digits : optional
        As numpy.format_float_scientific.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        `x` not a number (as NumPy, which formats integers as floats), or an Array of more than one element.
    ValueError
        Inconsistent options (as NumPy).

    See Also
    --------
    format_float_positional, array2string, numpy.format_float_scientific

    Examples
    --------
    >>> npgpu.format_float_scientific(npgpu.float64(12345.678), precision=3)
    '1.235e+04'
    """
    return np.format_float_scientific(_scalar("format_float_scientific", x), precision, unique, trim, sign,
                                      pad_left, exp_digits, min_digits)


def binary_repr(num, width=None):
    """The binary string of an integer (two's complement of `width` bits when negative), as numpy.binary_repr.

    Parameters
    ----------
    num : int, NumPy integer scalar or npgpu.Array of one integer
        The value (an Array is read back once).
    width : int, optional
        As numpy.binary_repr.

    Returns
    -------
    str

    Raises
    ------
    TypeError
        `num` not an integer (as NumPy), or an Array of more than one element.

    See Also
    --------
    base_repr, numpy.binary_repr

    Examples
    --------
    >>> npgpu.binary_repr(5), npgpu.binary_repr(-3, width=4)
    ('101', '1101')
    """
    return np.binary_repr(_scalar("binary_repr", num), width)


def base_repr(number, base=2, padding=0):
    """The string of an integer in base 2 to 36, as numpy.base_repr.

    Parameters
    ----------
    number : int, NumPy integer scalar or npgpu.Array of one integer
        The value (an Array is read back once).
    base : int, optional
        2 to 36 (default 2).
    padding : int, optional
        Zeros to put on the left.

    Returns
    -------
    str

    Raises
    ------
    ValueError
        A base outside 2..36 (as NumPy).
    TypeError
        An Array of more than one element.

    See Also
    --------
    binary_repr, numpy.base_repr

    Examples
    --------
    >>> npgpu.base_repr(255, 16), npgpu.base_repr(7, 3, padding=2)
    ('FF', '0021')
    """
    return np.base_repr(_scalar("base_repr", number), base, padding)
