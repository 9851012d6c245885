"""The benchmark harness's host-side logic (the timings themselves need a GPU: python -m npgpu bench)."""
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
