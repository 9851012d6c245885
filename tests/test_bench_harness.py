"""The benchmark harness's host-side logic, and the host backend's benchmarks, which need no GPU."""
import pytest

from npgpu.benchmarks._harness import Result, _batch_for


@pytest.mark.parametrize("ms_one, expected", [(0.094, 11), (0.5, 2), (1.0, 1), (21.5, 1), (0.001, 32), (0.0, 32)])
def test_batch_fills_about_a_millisecond(ms_one, expected):
    # a 94 us reduction is timed 11 calls at a time: the GPU never waits for the host between them
    assert _batch_for(ms_one) == expected


def test_result_met_follows_the_direction_of_the_target():
    assert Result("bandwidth", 2900.0, "GB/s", target=2850.0).met is True
    assert Result("bandwidth", 2800.0, "GB/s", target=2850.0).met is False
    assert Result("latency", 5.0, "us", target=4.0, higher_is_better=False).met is False
    assert Result("latency", 3.5, "us", target=4.0, higher_is_better=False).met is True
    assert Result("untargeted", 1.0, "x").met is None


def test_dask_benchmark_field_fits_the_free_memory(monkeypatch):
    # The dask benchmark's field: 81920^2 where two float32 buffers fit in 60 % of the smallest free device
    # memory, else the largest multiple of 1024 that does (memory_info's dict, per device).
    import npgpu
    from npgpu.benchmarks import bench_dask

    monkeypatch.delenv("NPGPU_BENCH_DASK_N", raising=False)
    free = {0: 140 << 30, 1: 20 << 30}
    monkeypatch.setattr(npgpu, "memory_info", lambda i=None: {"device_free": free[i], "device_total": 144 << 30})
    assert bench_dask._field_n(1) == 81920
    n = bench_dask._field_n(2)
    assert n % 1024 == 0 and 2 * n * n * 4 <= 0.6 * free[1] < 2 * (n + 1024) ** 2 * 4


def test_host_benchmarks_run_without_a_gpu(capsys, monkeypatch):
    # The host backend's benchmarks (against NumPy) run on any machine; with no GPU, naming a GPU benchmark
    # is refused with the list of those that can run.
    import json

    import npgpu
    from npgpu import benchmarks

    monkeypatch.setattr(npgpu, "is_available", lambda: False)
    assert benchmarks.main(["host_overhead"], as_json=True, repeat=3) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["device"].startswith("host backend only") and not doc["errors"]
    names = [r["name"] for r in doc["results"]]
    assert names == ["host sum of 1024 float32: cost per call", "host add of 1024 float32: cost per call"]
    assert all(r["value"] > 0 and r["anchors"]["NumPy us"] > 0 for r in doc["results"])
    assert benchmarks.main(["sort"], repeat=3) == 2
    err = capsys.readouterr().err
    assert "['sort'] need a GPU" in err and "host_reduce" in err
    assert "host_reduce" in benchmarks.host_benchmarks() and "sort" not in benchmarks.host_benchmarks()
