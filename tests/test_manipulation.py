"""Manipulation functions of the namespace against NumPy, on each device (array_device), with odd shapes,
non-contiguous inputs, 0-size and 0-d arrays, and their errors."""
import numpy as np
import pytest
from numpy.exceptions import AxisError

import npgpu


def same(got, want):
    assert isinstance(got, npgpu.Array), type(got)
    g = got.get()
    assert g.dtype == want.dtype and g.shape == want.shape, (g.dtype, g.shape, want.dtype, want.shape)
    assert np.array_equal(g, want, equal_nan=want.dtype.kind in "fc")


@pytest.fixture
def pair(random_array):
    """(NumPy array, npgpu.Array) of one 3-D non-contiguous float32 view."""
    base = random_array((5, 7, 6), np.float32)
    return base[:, ::-2, 1:], npgpu.asarray(base, copy=True)[:, ::-2, 1:]


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concatenate(array_device, random_array, axis):
    hs = [random_array((3, 4, 5), np.float32), random_array((3, 4, 5), np.int16)[:, ::-1],
          random_array((3, 4, 5), np.float64).transpose(0, 1, 2)]
    if axis is not None:
        hs[1] = np.concatenate([hs[1], hs[1]], axis=axis)
    xs = [npgpu.asarray(h) for h in hs]
    same(npgpu.concatenate(xs, axis=axis), np.concatenate(hs, axis=axis))
    same(npgpu.concat(xs, axis=axis), np.concatenate(hs, axis=axis))
    same(np.concatenate(xs, axis=axis), np.concatenate(hs, axis=axis))  # __array_function__


def test_concatenate_dtype_out_and_errors(array_device, random_array):
    a, b = random_array((2, 3), np.int32), random_array((4, 3), np.int32)
    x, y = npgpu.asarray(a), npgpu.asarray(b)
    same(npgpu.concatenate([x, y], dtype=np.float32), np.concatenate([a, b], dtype=np.float32))
    out = npgpu.full((6, 3), -1, dtype=np.int32)
    assert npgpu.concatenate([x, y], out=out) is out
    same(out, np.concatenate([a, b]))
    same(npgpu.concatenate([x[:0], y]), np.concatenate([a[:0], b]))
    with pytest.raises(ValueError, match="dimension 1"):
        npgpu.concatenate([x, y[:, :2]])
    with pytest.raises(ValueError, match="zero-dimensional"):
        npgpu.concatenate([x[0, 0], y[0, 0]])
    with pytest.raises(ValueError, match="at least one"):
        npgpu.concatenate([])
    with pytest.raises(AxisError):
        npgpu.concatenate([x, y], axis=2)
    with pytest.raises(TypeError, match="Cannot cast"):
        npgpu.concatenate([x, y], dtype=np.int8, casting="safe")


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_stack_unstack(array_device, random_array, axis):
    hs = [random_array((4, 3), np.complex64) for _ in range(3)]
    xs = [npgpu.asarray(h) for h in hs]
    same(npgpu.stack(xs, axis=axis), np.stack(hs, axis=axis))
    s = np.stack(hs, axis=axis)
    parts = npgpu.unstack(npgpu.asarray(s), axis=axis)
    assert len(parts) == 3
    for p, h in zip(parts, hs):
        same(p, h)
    with pytest.raises(ValueError, match="same shape"):
        npgpu.stack([xs[0], xs[1][:2]])


def test_splits(array_device, random_array):
    h = random_array((10, 7), np.int64)
    x = npgpu.asarray(h)
    for got, want in zip(npgpu.array_split(x, 3, axis=1), np.array_split(h, 3, axis=1)):
        same(got, want)
    for got, want in zip(npgpu.split(x, [2, 5, 20], axis=0), np.split(h, [2, 5, 20], axis=0)):
        same(got, want)
    for got, want in zip(npgpu.split(x, 5), np.split(h, 5)):
        same(got, want)
    with pytest.raises(ValueError, match="equal division"):
        npgpu.split(x, 3)


def test_stacking_helpers(array_device, random_array):
    a, b = random_array(5, np.float64), random_array(5, np.float64)
    x, y = npgpu.asarray(a), npgpu.asarray(b)
    same(npgpu.vstack([x, y]), np.vstack([a, b]))
    same(npgpu.hstack([x, y]), np.hstack([a, b]))
    same(npgpu.dstack([x, y]), np.dstack([a, b]))
    same(npgpu.column_stack([x, y]), np.column_stack([a, b]))
    same(npgpu.atleast_3d(x), np.atleast_3d(a))
    same(npgpu.atleast_2d(npgpu.asarray(np.float32(3))), np.atleast_2d(np.float32(3)))


def test_broadcasting(array_device, random_array):
    h = random_array((3, 1, 5), np.uint16)
    x = npgpu.asarray(h)
    b = npgpu.broadcast_to(x, (2, 3, 4, 5))
    assert b.readonly
    same(b, np.broadcast_to(h, (2, 3, 4, 5)))
    p, q = npgpu.broadcast_arrays(x, npgpu.asarray(random_array((4, 1), np.uint16)))
    assert p.shape == q.shape == (3, 4, 5)
    assert npgpu.broadcast_shapes((3, 1), (1, 4)) == (3, 4)
    with pytest.raises(ValueError, match="broadcast"):
        npgpu.broadcast_to(x, (3, 2, 4))


def test_axis_views(array_device, pair):
    h, x = pair
    same(npgpu.expand_dims(x, (0, -1)), np.expand_dims(h, (0, -1)))
    same(npgpu.squeeze(npgpu.expand_dims(x, 1), axis=1), h)
    same(npgpu.flip(x), np.flip(h))
    same(npgpu.flip(x, axis=(0, 2)), np.flip(h, axis=(0, 2)))
    same(npgpu.moveaxis(x, 0, -1), np.moveaxis(h, 0, -1))
    same(npgpu.moveaxis(x, (0, 1), (2, 0)), np.moveaxis(h, (0, 1), (2, 0)))
    same(npgpu.permute_dims(x, (2, 0, 1)), np.transpose(h, (2, 0, 1)))
    same(npgpu.swapaxes(x, 0, 2), np.swapaxes(h, 0, 2))
    with pytest.raises(ValueError, match="repeated"):
        npgpu.expand_dims(x, (1, 1))
    with pytest.raises(AxisError):
        npgpu.flip(x, axis=3)


@pytest.mark.parametrize("shift,axis", [(3, None), (-2, 0), (10, 1), ((1, -4), (0, 2)), (2, (0, 1)), (0, 1)])
def test_roll(array_device, pair, shift, axis):
    h, x = pair
    same(npgpu.roll(x, shift, axis=axis), np.roll(h, shift, axis=axis))


def test_reshape_and_ravel(array_device, pair):
    h, x = pair
    same(npgpu.reshape(x, (-1, 5)), h.reshape(-1, 5))
    same(npgpu.ravel(x), h.ravel())
    c = npgpu.asarray(np.ascontiguousarray(h))
    assert npgpu.reshape(c, (5, -1), copy=False).ptr == c.ptr
    assert npgpu.reshape(c, (5, -1), copy=True).ptr != c.ptr
    with pytest.raises(ValueError, match="copy"):
        npgpu.reshape(c.T, (-1,), copy=False)


@pytest.mark.parametrize("repeats,axis", [(3, None), (2, 0), (0, 1), ([1, 0, 3, 2, 1], 0), (4, -1)])
def test_repeat(array_device, pair, repeats, axis):
    h, x = pair
    same(npgpu.repeat(x, repeats, axis=axis), np.repeat(h, repeats, axis=axis))


def test_repeat_errors(array_device, pair):
    h, x = pair
    with pytest.raises(ValueError, match="negative"):
        npgpu.repeat(x, -1)
    with pytest.raises(ValueError, match="broadcast"):
        npgpu.repeat(x, [1, 2], axis=0)


@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3, 1, 2), (0, 2)])
def test_tile(array_device, random_array, reps):
    h = random_array((3, 4), np.int8)
    same(npgpu.tile(npgpu.asarray(h), reps), np.tile(h, reps))


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("widths", [2, ((1, 2), (0, 3)), ((7, 9), (11, 1)), ((0, 0), (4, 0))], ids=str)
def test_pad(array_device, random_array, mode, widths):
    h = random_array((4, 3), np.float64)
    x = npgpu.asarray(h)
    kw = {"constant_values": 2.5} if mode == "constant" else {}
    same(npgpu.pad(x, widths, mode=mode, **kw), np.pad(h, widths, mode=mode, **kw))


def test_pad_errors(array_device):
    x = npgpu.zeros((2, 2))
    with pytest.raises(ValueError, match="mode"):
        npgpu.pad(x, 1, mode="nonsense")
    with pytest.raises(NotImplementedError, match="median"):
        npgpu.pad(x, 1, mode="median")
    with pytest.raises(ValueError, match="negative"):
        npgpu.pad(x, -1)
    with pytest.raises(TypeError, match="integral"):
        npgpu.pad(x, 1.5)


def test_mixed_devices_refused(array_device):
    x = npgpu.asarray([1.0, 2.0])
    if npgpu.is_available():
        other = x.to_device("cpu" if array_device == "cuda" else "cuda")
        with pytest.raises(ValueError, match="different devices"):
            npgpu.concatenate([x, other])
    same(npgpu.concatenate([x, np.array([3.0])]), np.array([1.0, 2.0, 3.0]))  # NumPy input moved to x's device
