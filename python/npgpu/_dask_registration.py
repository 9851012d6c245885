"""npgpu.Array as a Dask chunk type: dask.sizeof and dask.array's dispatch tables.

Nothing here imports dask at module level, and ``import npgpu`` never imports this module. Registration
happens in each process that uses dask with npgpu chunks:

- ``import npgpu.dask`` calls :func:`register` (sizeof and every dask.array hook);
- the ``dask.sizeof`` entry point (see docs/dask.md for the pyproject lines) calls :func:`register_sizeof`
  when ``dask.sizeof`` is imported, in every process, workers included: sizeof at once, dask.array's hooks
  at the first sizeof of an npgpu.Array once dask.array is loaded (dask.array cannot be imported while
  dask.sizeof itself is being imported);
- distributed workers: ``npgpu.dask.register_worker_plugin(client)`` (a WorkerPlugin that imports
  npgpu.dask on each worker, present and future); graphs built with ``npgpu.dask`` functions also import it
  on the workers that run them.

What dask.array needs that its ``object`` fallbacks do not already give through
``Array.__array_function__``: ``numel`` / ``nannumel`` returning npgpu arrays (the fallback makes NumPy
arrays, which var, std and mean then cannot mix with device chunks), and ``to_numpy_dispatch``
(``darr.to_backend("numpy")``: an explicit copy to the host). concatenate, tensordot, einsum, take and
empty are registered too, so that dask never needs the generic path.
"""
import sys
import threading

import numpy as np

import npgpu

_lock = threading.Lock()
_sizeof_done = False
_array_done = False

# What one npgpu.Array object costs besides its data (the Python object and its view), roughly.
_OVERHEAD = 160


def sizeof_array(x):
    """Bytes of `x`'s data as dask should count them: nbytes, with broadcast (stride-0) axes counted once."""
    shape = x.shape
    strides = x.strides
    n = x.itemsize
    for extent, stride in zip(shape, strides):
        if stride != 0:
            n *= extent
    if 0 in shape:
        n = 0
    return int(n) + _OVERHEAD


def register_sizeof(sizeof=None):
    """Register npgpu.Array with ``dask.sizeof.sizeof`` (the ``dask.sizeof`` entry point's registrar: dask
    passes its `sizeof` dispatch)."""
    global _sizeof_done
    if sizeof is None:
        from dask.sizeof import sizeof
    with _lock:
        if _sizeof_done and sizeof.dispatch(npgpu.Array) is _sizeof_and_register:
            return
        sizeof.register(npgpu.Array)(_sizeof_and_register)
        _sizeof_done = True


def _sizeof_and_register(x):
    if not _array_done and "dask.array.dispatch" in sys.modules:
        try:
            register_array()
        except ImportError:  # dask.array partly imported: try again at the next call
            pass
    return sizeof_array(x)


def _einsum(*operands, **kwargs):
    kwargs.pop("casting", None)
    kwargs.pop("order", None)
    return npgpu.einsum(*operands, **kwargs)


def _take(a, indices, axis=None):
    if not isinstance(indices, npgpu.Array):
        indices = npgpu.asarray(np.asarray(indices), device=a.device)
    return npgpu.take(a, indices, axis=axis)


def _to_numpy(data, **kwargs):
    return data.get()


def _empty(shape, dtype=None, **kwargs):
    # empty_lookup is dispatched on the meta's type; NumPy's keywords other than dtype carry no meaning here
    return npgpu.empty(shape, dtype=dtype)


def register_array():
    """Register npgpu.Array with dask.array's dispatch tables (imports dask.array)."""
    global _array_done
    from dask.array import backends as _backends  # noqa: F401  (the numpy registrations come first)
    from dask.array import dispatch
    with _lock:
        if _array_done:
            return
        A = npgpu.Array
        dispatch.concatenate_lookup.register(A, npgpu.concatenate)
        dispatch.tensordot_lookup.register(A, npgpu.tensordot)
        dispatch.einsum_lookup.register(A, _einsum)
        dispatch.take_lookup.register(A, _take)
        dispatch.empty_lookup.register(A, _empty)
        dispatch.numel_lookup.register(A, _backends._numel_arraylike)
        dispatch.nannumel_lookup.register(A, _backends._nannumel)
        dispatch.to_numpy_dispatch.register(A, _to_numpy)
        _array_done = True


def register():
    """Register npgpu.Array with dask.sizeof and dask.array (idempotent, thread-safe)."""
    register_sizeof()
    register_array()
