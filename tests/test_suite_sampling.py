"""The suite's own ``--params-per-test`` option (tests/conftest.py), run on a small generated test file in a
child pytest: which parametrizations it keeps, that every test function still runs, and its bad values."""
import pathlib
import subprocess
import sys

import pytest

CONFTEST = pathlib.Path(__file__).with_name("conftest.py")

TESTS = '''
import pytest

@pytest.mark.parametrize("i", range(10))
def test_ten(i):
    pass

@pytest.mark.parametrize("i", range(2))
def test_two(i):
    pass

def test_plain():
    pass
'''


def _run(tmp_path, *args):
    (tmp_path / "conftest.py").write_text(CONFTEST.read_text())
    (tmp_path / "test_generated.py").write_text(TESTS)
    return subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "-p", "no:randomly",
                           "--rootdir", str(tmp_path), str(tmp_path), *args],
                          capture_output=True, text=True, timeout=120)


def _passed(stdout):
    return sorted(line.split("::", 1)[1].split()[0] for line in stdout.splitlines() if " PASSED" in line)


def test_keeps_k_per_function_spread_from_first_to_last(tmp_path):
    r = _run(tmp_path, "--params-per-test", "3")
    assert r.returncode == 0, r.stdout + r.stderr
    assert _passed(r.stdout) == ["test_plain", "test_ten[0]", "test_ten[4]", "test_ten[9]", "test_two[0]",
                                 "test_two[1]"]
    assert "7 deselected" in r.stdout


def test_zero_keeps_all_and_k_applies_after_k_selection(tmp_path):
    assert len(_passed(_run(tmp_path, "--params-per-test", "0").stdout)) == 13
    r = _run(tmp_path, "--params-per-test", "1", "-k", "ten and not 0")
    assert _passed(r.stdout) == ["test_ten[1]"], r.stdout


def test_negative_count_is_a_usage_error(tmp_path):
    r = _run(tmp_path, "--params-per-test", "-1")
    assert r.returncode == pytest.ExitCode.USAGE_ERROR, r.stdout + r.stderr
    assert "--params-per-test" in r.stderr


def test_shards_split_the_selection_exactly(tmp_path):
    # Three processes with --shard 0/3, 1/3, 2/3 run every selected test once between them, after the sampling.
    everything = _passed(_run(tmp_path, "--params-per-test", "3").stdout)
    shards = [_passed(_run(tmp_path, "--params-per-test", "3", "--shard", f"{k}/3").stdout) for k in range(3)]
    assert all(shards), shards
    assert sorted(sum(shards, [])) == everything
    assert not set(shards[0]) & set(shards[1])


@pytest.mark.parametrize("bad", ["3/3", "-1/2", "1", "a/b"])
def test_bad_shard_is_a_usage_error(tmp_path, bad):
    r = _run(tmp_path, f"--shard={bad}")
    assert r.returncode == pytest.ExitCode.USAGE_ERROR, r.stdout + r.stderr
    assert "--shard" in r.stderr
