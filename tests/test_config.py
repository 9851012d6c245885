"""npgpu.show_config and npgpu.show_runtime (NumPy's two reports) and ``python -m npgpu info``."""
import numpy as np
import pytest

import npgpu

LIBRARIES = ("nvidia-cublas", "nvidia-cuda-nvrtc", "nvidia-cufft", "nvidia-cusolver", "nvidia-cusparse")


def test_show_config_dicts(monkeypatch):
    monkeypatch.setenv("NPGPU_STAGING_SLOTS", "6")
    c = npgpu.show_config(mode="dicts")
    assert c["npgpu"] == npgpu.__version__
    assert c["CUDA runtime (linked into libnpgpu)"].startswith("13.")
    assert c["include dir"] == npgpu.get_include() and c["CMake package dir"] == npgpu.get_cmake_dir()
    libs = c["NVIDIA libraries (opened on first use)"]
    assert sorted(libs) == sorted(LIBRARIES)
    for lib in libs.values():
        assert lib["path"] is None or lib["path"].endswith(lib["library"]), lib
    assert c["NPGPU_* environment"]["NPGPU_STAGING_SLOTS"] == "6"
    assert all(k.startswith("NPGPU_") for k in c["NPGPU_* environment"])


def test_show_config_prints_one_line_per_library(capsys):
    assert npgpu.show_config() is None
    out = capsys.readouterr().out
    assert out.startswith(f"npgpu: {npgpu.__version__}\n")
    for package in LIBRARIES:
        line = next(ln for ln in out.splitlines() if ln.strip().startswith(package + " "))
        assert ".so." in line or "not installed" in line or "not found" in line, line


@pytest.mark.parametrize("show", [npgpu.show_config, npgpu.show_runtime])
@pytest.mark.parametrize("mode", ["DICTS", None, 1, "json"])
def test_bad_mode_is_a_value_error(show, mode):
    with pytest.raises(ValueError, match="mode must be 'stdout' or 'dicts'"):
        show(mode=mode)


def test_show_runtime_without_a_gpu_says_why(capsys):
    if npgpu.device_count():
        pytest.skip("this machine has a GPU (test_show_runtime_lists_each_gpu covers it)")
    r = npgpu.show_runtime(mode="dicts")
    assert r["GPUs"] == 0 and r["devices"] == []
    assert r["no GPU"] == npgpu.unavailable_reason()
    assert r["staging ring"] == {"slot bytes": npgpu.staging_config()[0], "slots": npgpu.staging_config()[1]}
    npgpu.show_runtime()
    out = capsys.readouterr().out
    assert f"backend for NumPy inputs: {npgpu.get_backend()}" in out and "no GPU: " in out


@pytest.mark.gpu
def test_show_runtime_lists_each_gpu(capsys):
    x = npgpu.asarray(np.arange(1 << 20, dtype=np.float32), device=0)  # so device 0's pool holds something
    r = npgpu.show_runtime(mode="dicts")
    assert r["GPUs"] == npgpu.device_count() == len(r["devices"])
    assert "no GPU" not in r
    d0 = r["devices"][0]
    assert d0["name"] == npgpu.Device(0).name
    assert d0["memory"].keys() == npgpu.memory_info(0).keys()
    assert d0["memory"]["pool_used"] >= x.nbytes and 0 < d0["memory"]["device_free"] <= d0["memory"]["device_total"]
    npgpu.show_runtime()
    assert f"name: {d0['name']}" in capsys.readouterr().out
    del x
