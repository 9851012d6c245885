"""Device memory pool and pinned memory statistics (GPU only)."""
import gc

import numpy as np
import pytest

import npgpu

pytestmark = pytest.mark.gpu

KEYS = {"pool_used", "cached_bytes", "pool_reserved", "pinned_bytes", "pinned_cache_limit", "device_free",
        "device_total"}
MiB = 1 << 20


def _settled_info():
    gc.collect()
    npgpu.synchronize()
    return npgpu.memory_info()


def test_memory_info_keys_and_values():
    info = npgpu.memory_info()
    assert set(info) == KEYS
    assert all(isinstance(v, int) for v in info.values())
    assert info["device_total"] > 0 and 0 <= info["device_free"] <= info["device_total"]
    assert info["pool_used"] >= 0 and info["cached_bytes"] >= 0 and info["pinned_bytes"] >= 0
    assert info["pool_reserved"] >= info["pool_used"]
    assert set(npgpu.memory_info(0)) == KEYS
    assert set(npgpu.memory_info(npgpu.Device(0))) == KEYS
    free, total = npgpu.Device(0).mem_info()
    assert total == info["device_total"]


def test_live_arrays_counted_in_pool_used():
    start = _settled_info()["pool_used"]
    a = npgpu.empty(64 * MiB, dtype=np.uint8)
    during = npgpu.memory_info()["pool_used"]
    assert during >= start + 64 * MiB
    del a
    assert _settled_info()["pool_used"] == start


def test_pool_used_returns_to_start_after_many_arrays(rng):
    start = _settled_info()["pool_used"]
    live = []
    sizes = np.concatenate([rng.integers(1, 4096, 120), rng.integers(4096, 4 * MiB, 70), [0] * 5,
                            [MiB, MiB + 1, 3 * MiB + 7, 512, 513]])
    rng.shuffle(sizes)
    assert len(sizes) == 200
    dtypes = [np.uint8, np.float32, np.complex128]
    for i, n in enumerate(sizes):
        dt = dtypes[i % 3]
        a = npgpu.full(int(n) // np.dtype(dt).itemsize + 1, 1, dtype=dt)
        if i % 7 == 0:
            a = a + a  # frees the first, keeps the result
        live.append(a)
        if len(live) > 16:  # keep a few alive at a time, in varied order
            live.pop(int(rng.integers(len(live))))
    assert float(np.asarray(live[-1]).ravel()[0].real) in (1.0, 2.0)
    del live, a
    end = _settled_info()
    assert end["pool_used"] == start, f"pool_used {start} -> {end['pool_used']}: device memory leaked"


@pytest.mark.alone
def test_trim_memory_pool_releases_cached_memory():
    npgpu.trim_memory_pool()  # start with an empty small-block cache
    a = npgpu.empty(256 * MiB, dtype=np.uint8)
    small = [npgpu.empty(1000) for _ in range(10)]  # small blocks go to the reuse cache when freed
    del a, small
    before = _settled_info()
    assert before["pool_reserved"] >= 256 * MiB  # the pool keeps freed memory (release threshold)
    assert before["cached_bytes"] > 0
    npgpu.trim_memory_pool()
    after = npgpu.memory_info()
    assert after["cached_bytes"] == 0
    assert after["pool_reserved"] <= before["pool_reserved"] - 256 * MiB
    # What stays reserved backs live allocations (the staging ring, arrays alive elsewhere) plus at most
    # the pool's allocation granularity for each of them.
    assert after["pool_reserved"] <= after["pool_used"] + 64 * MiB
    assert after["pool_used"] == before["pool_used"]  # trimming frees nothing that is in use
    # Memory is still usable after a trim.
    b = npgpu.full(1000, 2.0)
    assert np.array_equal(b.get(), np.full(1000, 2.0))


@pytest.mark.alone
def test_oom_retry_hands_pooled_memory_back_to_the_driver():
    # Freed memory stays reserved by the pool, in 1 GiB pieces with live blocks between them: a block larger
    # than the driver's free memory fits only once the failed allocation hands those pieces back and retries.
    npgpu.trim_memory_pool()
    GiB = 1 << 30
    n = int(npgpu.memory_info()["device_free"] * 0.85) // GiB
    blocks = [npgpu.empty(GiB, dtype=np.uint8) for _ in range(n)]
    del blocks[::2]
    info = _settled_info()
    want = (n // 2 - 1) * GiB
    assert info["device_free"] < want <= info["pool_reserved"] - info["pool_used"]
    big = npgpu.full(want, 3, dtype=np.uint8)
    assert int(big[0].get()) == 3 and int(big[want - 1].get()) == 3
    del big, blocks
    npgpu.trim_memory_pool()


@pytest.mark.alone
def test_trim_keep_bytes():
    a = npgpu.empty(128 * MiB, dtype=np.uint8)
    del a
    _settled_info()
    npgpu.trim_memory_pool(keep_bytes=1 << 40)  # keep everything: reserved may stay
    npgpu.trim_memory_pool(0)
    after = npgpu.memory_info()
    assert after["pool_reserved"] <= after["pool_used"] + 64 * MiB


def test_pinned_bytes():
    start = npgpu.memory_info()["pinned_bytes"]
    assert start >= 0
    p = npgpu.empty_pinned((1000, 1000), dtype=np.float32)
    assert isinstance(p, np.ndarray) and p.shape == (1000, 1000) and p.dtype == np.float32
    assert p.flags.writeable and p.flags.c_contiguous
    p[:] = 3.0
    info = npgpu.memory_info()
    assert info["pinned_bytes"] >= 4 * 10**6  # this block, whether fresh or from the cache
    d = npgpu.asarray(p)
    assert np.array_equal(d.get(), p)
    del p
    gc.collect()
    assert npgpu.memory_info()["pinned_bytes"] >= 0
    e = npgpu.empty_pinned(0)
    assert e.shape == (0,)


def test_pinned_cache_keeps_the_block_just_released():
    # Small cached blocks make room for a large one being released, so a workload that gets a large pinned
    # result on every call (NumPy-in/NumPy-out elementwise operations) reuses it instead of pinning it anew.
    small = [npgpu.empty_pinned(1 << 20, np.uint8) for _ in range(4)]
    del small
    gc.collect()
    big_n = (1 << 30) - (1 << 20)  # the cache's default bound is 1 GiB: the small blocks must give way
    big = npgpu.empty_pinned(big_n, np.uint8)
    big[::4096] = 7
    del big
    gc.collect()
    after_release = npgpu.memory_info()["pinned_bytes"]
    assert after_release >= big_n  # still held, in the cache
    again = npgpu.empty_pinned(big_n, np.uint8)
    assert npgpu.memory_info()["pinned_bytes"] <= after_release  # taken from the cache, not pinned anew
    del again


def test_pinned_cache_keeps_large_blocks_over_small_ones():
    # A small block released into a full cache goes; the large cached block stays for its next use.
    big_n = (1 << 30) - (1 << 20)
    big = npgpu.empty_pinned(big_n, np.uint8)
    big[::4096] = 7
    del big
    gc.collect()
    held = npgpu.memory_info()["pinned_bytes"]
    small = npgpu.empty_pinned((4 << 20) + 3 * 65536, np.uint8)  # a size class nothing else uses
    small[::4096] = 1
    del small
    gc.collect()
    again = npgpu.empty_pinned(big_n, np.uint8)
    assert npgpu.memory_info()["pinned_bytes"] <= held  # the large block came from the cache
    del again


@pytest.mark.heavy
def test_array_outliving_its_stream_is_freed():
    # An array allocated on a Stream is freed (stream-ordered) when it goes, even after the Python Stream
    # object went first. Run in a subprocess: freeing on a destroyed stream is undefined behaviour.
    import subprocess
    import sys
    code = (
        "import gc, numpy as np, npgpu\n"
        # the staging ring, which the 4 MiB download below goes through, keeps its device slots for good
        "npgpu.zeros(4 << 20, dtype=np.uint8).get()\n"
        "gc.collect(); npgpu.synchronize()\n"
        "start = npgpu.memory_info()['pool_used']\n"
        "s = npgpu.Stream()\n"
        "a = npgpu.full(4 << 20, 1, dtype=np.uint8, stream=s)\n"
        "b = npgpu.full(1000, 1, dtype=np.uint8, stream=s)\n"
        "s.synchronize()\n"
        "del s; gc.collect()\n"
        "assert int(a.get()[-1]) == 1\n"
        "del a, b; gc.collect(); npgpu.synchronize()\n"
        "c = npgpu.full(1000, 2.0); assert c.get()[0] == 2.0; del c; gc.collect(); npgpu.synchronize()\n"
        "print('LEAKED', npgpu.memory_info()['pool_used'] - start)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "LEAKED 0" in p.stdout, p.stdout + p.stderr


_PRIMARY_CONTEXT_PROBE = r"""
import ctypes, sys
import numpy as np
import npgpu
cuda = ctypes.CDLL("libcuda.so.1")
assert cuda.cuInit(0) == 0
dev = ctypes.c_int()
assert cuda.cuDeviceGet(ctypes.byref(dev), 0) == 0
def active():
    flags, on = ctypes.c_uint(), ctypes.c_int()
    assert cuda.cuDevicePrimaryCtxGetState(dev, ctypes.byref(flags), ctypes.byref(on)) == 0
    return on.value
metas = [npgpu.empty((0, 3), dtype=np.float32, device="cuda:0"), npgpu.zeros((0,), device="cuda:0")]
before = active()
npgpu.ones(4, device="cuda:0").get()
print(before, active())
"""


@pytest.mark.gpu
def test_zero_size_device_arrays_create_no_context():
    # dask builds zero-size "meta" arrays on the client: they must not start a CUDA context there.
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-c", _PRIMARY_CONTEXT_PROBE], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["0", "1"], r.stdout


def test_pinned_cache_limit_reads_environment():
    # the limit the C++ cache applies, as read once per process from NPGPU_PINNED_CACHE_BYTES
    import os
    import subprocess
    import sys
    code = 'import npgpu; print(npgpu.memory_info()["pinned_cache_limit"])'
    for env, want in (({"NPGPU_PINNED_CACHE_BYTES": "12345678"}, 12345678), ({}, 1 << 30)):
        e = {k: v for k, v in os.environ.items() if k != "NPGPU_PINNED_CACHE_BYTES"} | env
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=e)
        assert p.returncode == 0, p.stderr
        assert int(p.stdout) == want
