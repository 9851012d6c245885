"""histogram against NumPy on each device: integer bins over the data's extent or a range, edge values
(the last bin closed), values outside and NaNs left out, float32 edges in float32, explicit edges,
weights, density, errors."""
import numpy as np
import pytest

import npgpu

pytestmark = pytest.mark.usefixtures("array_device")


def _same(got, want, exact=True):
    assert len(got) == 2
    for g, w in zip(got, want):
        g = g.get()
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        if exact:
            np.testing.assert_array_equal(g, w)
        else:
            np.testing.assert_allclose(g, w, rtol=1e-12)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int16, np.uint8])
@pytest.mark.parametrize("bins", [1, 7, 10, 64])
def test_uniform_bins(rng, dt, bins):
    a = (rng.standard_normal(5000) * 20 if np.dtype(dt).kind == "f" else rng.integers(0, 50, 5000)).astype(dt)
    d = npgpu.asarray(a)
    _same(npgpu.histogram(d, bins=bins), np.histogram(a, bins=bins))
    _same(npgpu.histogram(d, bins=bins, range=(-3, 17)), np.histogram(a, bins=bins, range=(-3, 17)))
    # values exactly on the edges
    edges = np.histogram_bin_edges(a, bins=bins)
    on = edges.astype(dt)
    _same(npgpu.histogram(npgpu.asarray(on), bins=bins, range=(float(edges[0]), float(edges[-1]))),
          np.histogram(on, bins=bins, range=(float(edges[0]), float(edges[-1]))))


def test_special_values_weights_density(rng):
    a = np.array([np.nan, 1.0, 2.0, 2.0, np.inf, -1.0, 3.0, 2.5])
    d = npgpu.asarray(a)
    _same(npgpu.histogram(d, bins=4, range=(0, 3)), np.histogram(a, bins=4, range=(0, 3)))
    w = rng.standard_normal(a.size)
    _same(npgpu.histogram(d, bins=3, range=(0, 3), weights=npgpu.asarray(w)),
          np.histogram(a, bins=3, range=(0, 3), weights=w), exact=False)
    _same(npgpu.histogram(d, bins=3, range=(0, 3), density=True), np.histogram(a, bins=3, range=(0, 3), density=True),
          exact=False)
    b = np.array([0, 0.5, 2, 3])
    _same(npgpu.histogram(d, bins=b), np.histogram(a, bins=b))
    ib = np.array([0, 1, 3])
    _same(npgpu.histogram(npgpu.asarray(np.array([0, 1, 2, 3, 3, 4])), bins=ib),
          np.histogram(np.array([0, 1, 2, 3, 3, 4]), bins=ib))
    _same(npgpu.histogram(npgpu.asarray(np.full(5, 2.0)), bins=2), np.histogram(np.full(5, 2.0), bins=2))
    _same(npgpu.histogram(npgpu.asarray(np.array([], dtype=np.float64)), bins=3),
          np.histogram(np.array([], dtype=np.float64), bins=3))


def test_errors():
    d = npgpu.asarray(np.array([1.0, np.inf]))
    with pytest.raises(ValueError, match="not finite"):
        npgpu.histogram(d)
    with pytest.raises(ValueError, match="positive"):
        npgpu.histogram(npgpu.asarray(np.ones(3)), bins=0)
    with pytest.raises(ValueError, match="monotonically"):
        npgpu.histogram(npgpu.asarray(np.ones(3)), bins=[0, 2, 1])
    with pytest.raises(ValueError, match="max must be larger"):
        npgpu.histogram(npgpu.asarray(np.ones(3)), range=(2, 1))
    got = npgpu.histogram(np.arange(10.0), bins=3)  # NumPy in, NumPy out
    assert isinstance(got[0], np.ndarray)
    np.testing.assert_array_equal(got[0], np.histogram(np.arange(10.0), bins=3)[0])
