"""Several GPUs in one process: arrays remember their device, move between devices by peer copies, refuse to
mix devices in one operation, and every operation family runs on an array's own device inside
``with npgpu.Device(i)`` as well as from another current device; one thread per device in parallel.
Skipped on machines with fewer than two GPUs (the 2-GPU device machine runs them)."""
import threading

import numpy as np
import pytest

import npgpu

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not npgpu.is_available() or npgpu.device_count() < 2, reason="needs 2 GPUs")]


@pytest.fixture
def host(rng):
    return rng.standard_normal((257, 129))


def test_arrays_remember_their_device(host):
    a = npgpu.asarray(host, device="cuda:1")
    assert a.device == npgpu.Device(1) and a.device_id == 1
    with npgpu.Device(1):
        b = npgpu.ones((4, 5))
        assert b.device == npgpu.Device(1)
        c = npgpu.asarray(host) * 2
        assert c.device == npgpu.Device(1)
    assert npgpu.ones(3).device == npgpu.Device(0)
    np.testing.assert_array_equal(a.get(), host)


@pytest.mark.parametrize("src,dst", [(0, 1), (1, 0)])
def test_to_device_copies_between_gpus(host, src, dst):
    a = npgpu.asarray(host, device=f"cuda:{src}")
    for view in (a, a[::3, 1::2], a.T):
        moved = view.to_device(f"cuda:{dst}")
        assert moved.device == npgpu.Device(dst)
        np.testing.assert_array_equal(moved.get(), view.get())
    assert a.to_device(npgpu.Device(src)) is a
    big = npgpu.arange(1 << 24, dtype=np.float32, device=f"cuda:{src}")
    np.testing.assert_array_equal(big.to_device(dst)[-5:].get(), np.arange((1 << 24) - 5, 1 << 24, dtype=np.float32))


def test_mixing_devices_raises(host):
    a = npgpu.asarray(host, device="cuda:0")
    b = npgpu.asarray(host, device="cuda:1")
    with pytest.raises(ValueError, match="device"):
        a + b
    with pytest.raises(ValueError, match="device"):
        npgpu.matmul(a, b.T)


def _families(x):
    """One operation of each family on x (a float64 device array), as NumPy values."""
    import npgpu.fft
    import npgpu.linalg
    sq = x[:64, :64] + 64 * npgpu.eye(64, dtype=x.dtype, device=x.device)
    return {
        "elementwise": npgpu.sin(x) * 2 + 1,
        "reduce": x.sum(axis=0),
        "scan": npgpu.cumsum(x, axis=1),
        "sort": npgpu.sort(x, axis=1),
        "take": npgpu.take(x, npgpu.asarray([3, 1, 2], device=x.device), axis=0),
        "matmul": x @ x.T,
        "fft": npgpu.fft.fft(x, axis=1),
        "solve": npgpu.linalg.solve(sq, x[:64, :3]),
        "random": npgpu.random.default_rng(1).standard_normal(5, device=x.device),
    }


@pytest.mark.parametrize("current", [0, 1])
def test_every_family_runs_on_the_arrays_device(host, current):
    ref = {k: v.get() for k, v in _families(npgpu.asarray(host, device="cuda:0")).items()}
    with npgpu.Device(current):
        got = _families(npgpu.asarray(host, device="cuda:1"))
    for name, v in got.items():
        assert v.device == npgpu.Device(1), name
        np.testing.assert_allclose(v.get(), ref[name], rtol=1e-10, atol=1e-10, err_msg=name)


@pytest.mark.threads
def test_one_thread_per_device(rng):
    data = [rng.standard_normal(1 << 20) for _ in range(2)]
    results, errors = [None, None], []

    def work(i):
        try:
            with npgpu.Device(i):
                x = npgpu.asarray(data[i])
                for _ in range(20):
                    x = npgpu.sqrt(x * x + 1.0)
                results[i] = (float(x.sum()), x.device)
        except Exception as e:  # surfaced in the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i in range(2):
        want = data[i]
        for _ in range(20):
            want = np.sqrt(want * want + 1.0)
        assert results[i][1] == npgpu.Device(i)
        assert results[i][0] == pytest.approx(want.sum(), rel=1e-12)
