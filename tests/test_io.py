"""npgpu's files and printing (npgpu._io): save/load, savez/savez_compressed, savetxt/loadtxt/genfromtxt and the
print options, against NumPy's own functions on the same data."""
import io

import numpy as np
import pytest

import npgpu

SAVED_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                np.float32, np.float64, np.complex64, np.complex128]


def _npy_bytes(host):
    buf = io.BytesIO()
    np.save(buf, host)
    return buf.getvalue()


@pytest.mark.parametrize("dtype", SAVED_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(), (0,), (0, 3), (5,), (3, 4)], ids=str)
def test_save_load_round_trip_bytes_as_numpy(array_device, tmp_path, random_array, dtype, shape):
    host = random_array(shape, dtype)
    a = npgpu.asarray(host, device=array_device)
    path = tmp_path / "a.npy"
    npgpu.save(path, a)
    assert path.read_bytes() == _npy_bytes(host)
    np.testing.assert_array_equal(np.load(path), host)
    back = npgpu.load(path, device=array_device)
    assert isinstance(back, npgpu.Array)
    assert back.dtype == host.dtype and back.shape == host.shape
    assert str(back.device) == str(a.device)
    np.testing.assert_array_equal(back.get(), host)


def test_save_appends_npy_and_takes_file_objects(array_device, tmp_path):
    a = npgpu.asarray([1.5, 2.5], device=array_device)
    npgpu.save(str(tmp_path / "x"), a)
    assert (tmp_path / "x.npy").read_bytes() == _npy_bytes(np.array([1.5, 2.5]))
    buf = io.BytesIO()
    npgpu.save(buf, a)
    assert buf.getvalue() == _npy_bytes(np.array([1.5, 2.5]))
    buf.seek(0)
    np.testing.assert_array_equal(npgpu.load(buf, device=array_device).get(), [1.5, 2.5])


def test_save_fortran_ordered_and_strided_views_as_numpy(array_device, tmp_path, random_array):
    host = random_array((3, 5), np.float32)
    a = npgpu.asarray(host, device=array_device)
    h3 = random_array((2, 3, 4), np.int64)
    a3 = npgpu.asarray(h3, device=array_device)
    views = {"T": (a.T, host.T), "step": (a[::2, 1::2], host[::2, 1::2]), "rev": (a[::-1], host[::-1]),
             "col": (a[:, :1], host[:, :1]), "Tcol": (a.T[:, 1:2], host.T[:, 1:2]),
             "T3": (a3.T, h3.T), "perm3": (a3.transpose(2, 0, 1), h3.transpose(2, 0, 1))}
    for name, (view, hview) in views.items():
        path = tmp_path / f"{name}.npy"
        npgpu.save(path, view)
        assert path.read_bytes() == _npy_bytes(hview), name
        np.testing.assert_array_equal(np.load(path), hview)
    assert b"'fortran_order': True" in (tmp_path / "T.npy").read_bytes()
    back = npgpu.load(tmp_path / "T.npy", device=array_device)
    np.testing.assert_array_equal(back.get(), host.T)
    # a Fortran-ordered NumPy file loads with its values
    np.save(tmp_path / "f.npy", np.asfortranarray(host))
    np.testing.assert_array_equal(npgpu.load(tmp_path / "f.npy", device=array_device).get(), host)


def test_numpy_save_dispatches_to_npgpu(array_device, tmp_path):
    a = npgpu.asarray(np.arange(6, dtype=np.int32).reshape(2, 3), device=array_device)
    np.save(tmp_path / "d.npy", a)
    assert (tmp_path / "d.npy").read_bytes() == _npy_bytes(np.arange(6, dtype=np.int32).reshape(2, 3))
    np.savez(tmp_path / "d.npz", a, b=a)
    with np.load(tmp_path / "d.npz") as z:
        np.testing.assert_array_equal(z["b"], a.get())
    np.savetxt(tmp_path / "d.txt", a, fmt="%d")
    assert (tmp_path / "d.txt").read_text() == "0 1 2\n3 4 5\n"


@pytest.mark.parametrize("compressed", [False, True])
def test_savez_several_arrays_and_names_lazy_load(array_device, tmp_path, random_array, compressed):
    hosts = {"x": random_array((4,), np.float64), "y": random_array((2, 3), np.int16),
             "z": random_array((), np.complex64)}
    first = random_array((3,), np.bool_)
    arrays = {k: npgpu.asarray(v, device=array_device) for k, v in hosts.items()}
    fn = npgpu.savez_compressed if compressed else npgpu.savez
    path = tmp_path / "many.npz"
    fn(path, npgpu.asarray(first, device=array_device), **arrays)
    with np.load(path) as ref:
        assert sorted(ref.files) == ["arr_0", "x", "y", "z"]
        np.testing.assert_array_equal(ref["arr_0"], first)
        for k, v in hosts.items():
            np.testing.assert_array_equal(ref[k], v)
    with npgpu.load(path, device=array_device) as data:
        assert sorted(data) == ["arr_0", "x", "y", "z"] and len(data) == 4 and "x" in data and "w" not in data
        for k, v in hosts.items():
            got = data[k]
            assert isinstance(got, npgpu.Array) and got.dtype == v.dtype and got.shape == v.shape
            np.testing.assert_array_equal(got.get(), v)
        with pytest.raises(KeyError):
            data["w"]
    # compression is NumPy's: the member sizes match numpy.savez_compressed's for the same data
    ref_path = tmp_path / "ref.npz"
    (np.savez_compressed if compressed else np.savez)(ref_path, first, **hosts)
    import zipfile
    with zipfile.ZipFile(path) as zf, zipfile.ZipFile(ref_path) as zr:
        assert [(i.filename, i.compress_type, i.file_size, i.CRC) for i in zf.infolist()] == \
            [(i.filename, i.compress_type, i.file_size, i.CRC) for i in zr.infolist()]


def test_savez_name_clash_as_numpy(tmp_path):
    a = npgpu.asarray([1.0], device="cpu")
    with pytest.raises(ValueError, match="arr_0"):
        npgpu.savez(tmp_path / "c.npz", a, arr_0=a)


def test_writers_take_numpy_data_as_numpy_and_refuse_bad_files(tmp_path):
    # NumPy arrays and lists are written as NumPy writes them; an empty savez is an empty archive, as NumPy's.
    data = np.arange(6.0).reshape(2, 3)
    for fn, ref, ext in ((npgpu.save, np.save, "npy"), (npgpu.savetxt, np.savetxt, "txt")):
        fn(tmp_path / f"n.{ext}", data)
        ref(tmp_path / f"r.{ext}", data)
        assert (tmp_path / f"n.{ext}").read_bytes() == (tmp_path / f"r.{ext}").read_bytes()
    npgpu.savez_compressed(tmp_path / "k.npz", k=[1, 2])
    np.testing.assert_array_equal(np.load(tmp_path / "k.npz")["k"], [1, 2])
    npgpu.savez(tmp_path / "empty.npz")
    assert len(np.load(tmp_path / "empty.npz").files) == 0
    with pytest.raises(TypeError, match="path"):
        npgpu.save(3.5, npgpu.asarray([1.0], device="cpu"))


def test_load_errors(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        npgpu.load(tmp_path / "missing.npy")
    assert "missing.npy" in str(info.value)
    with pytest.raises(NotImplementedError, match="mmap_mode"):
        npgpu.load(tmp_path / "missing.npy", mmap_mode="r")
    with pytest.raises(TypeError, match="path"):
        npgpu.load(None)
    (tmp_path / "junk.npy").write_bytes(b"not an array")
    with pytest.raises(ValueError):
        npgpu.load(tmp_path / "junk.npy", allow_pickle=False)


def test_allow_pickle(tmp_path):
    np.save(tmp_path / "obj.npy", np.array([1, "a"], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match="allow_pickle"):
        npgpu.load(tmp_path / "obj.npy")  # the default is False, as NumPy's
    with pytest.raises(TypeError, match="object"):
        npgpu.load(tmp_path / "obj.npy", allow_pickle=True)  # npgpu arrays hold no objects
    import pickle
    (tmp_path / "p.pkl").write_bytes(pickle.dumps({"k": 1}))
    with pytest.raises(ValueError, match="allow_pickle"):
        npgpu.load(tmp_path / "p.pkl")
    assert npgpu.load(tmp_path / "p.pkl", allow_pickle=True) == {"k": 1}
    # allow_pickle is passed on to NumPy's writer (no effect on plain dtypes)
    npgpu.save(tmp_path / "np.npy", npgpu.asarray([1, 2], device="cpu"), allow_pickle=False)
    np.testing.assert_array_equal(np.load(tmp_path / "np.npy"), [1, 2])


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex128, np.bool_], ids=lambda d: np.dtype(d).name)
def test_savetxt_as_numpy(array_device, tmp_path, random_array, dtype):
    host = random_array((3, 4), dtype)
    a = npgpu.asarray(host, device=array_device)
    kw = dict(delimiter=",", header="a,b,c,d", footer="end", comments="// ")
    npgpu.savetxt(tmp_path / "n.txt", a, **kw)
    np.savetxt(tmp_path / "r.txt", host, **kw)
    assert (tmp_path / "n.txt").read_bytes() == (tmp_path / "r.txt").read_bytes()
    if dtype is not np.complex128:
        back = npgpu.loadtxt(tmp_path / "n.txt", delimiter=",", comments="//", device=array_device)
        np.testing.assert_array_equal(back.get(), host.astype(np.float64))
    npgpu.savetxt(tmp_path / "v.txt", a[1], fmt="%s")
    np.savetxt(tmp_path / "rv.txt", host[1], fmt="%s")
    assert (tmp_path / "v.txt").read_bytes() == (tmp_path / "rv.txt").read_bytes()


def test_savetxt_3d_error():
    with pytest.raises(ValueError):
        npgpu.savetxt(io.StringIO(), npgpu.zeros((2, 2, 2), device="cpu"))


def test_loadtxt_options(array_device, tmp_path):
    text = "# title\nskip me\n1;2;3 # trailing\n4;5;6\n% other comment\n7;8;9\n"
    (tmp_path / "t.txt").write_text(text)
    kw = dict(delimiter=";", comments=["#", "%"], skiprows=2, usecols=(0, 2))
    got = npgpu.loadtxt(tmp_path / "t.txt", device=array_device, **kw)
    expected = np.loadtxt(tmp_path / "t.txt", **kw)
    assert isinstance(got, npgpu.Array)
    np.testing.assert_array_equal(got.get(), expected)
    np.testing.assert_array_equal(got.get(), [[1, 3], [4, 6], [7, 9]])
    x, y = npgpu.loadtxt(tmp_path / "t.txt", unpack=True, max_rows=2, device=array_device, **kw)
    np.testing.assert_array_equal(x.get(), [1, 4])
    np.testing.assert_array_equal(y.get(), [3, 6])
    one = npgpu.loadtxt(["5"], ndmin=2, dtype=np.int64, device=array_device)
    assert one.shape == (1, 1) and one.dtype == np.int64
    with pytest.raises(ValueError):
        npgpu.loadtxt(["1 2", "3"])
    with pytest.raises(TypeError, match="npgpu arrays cannot hold"):
        npgpu.loadtxt(["a b"], dtype=str)
    with pytest.raises(FileNotFoundError):
        npgpu.loadtxt(tmp_path / "nope.txt")
    with pytest.raises(TypeError, match="fname"):
        npgpu.loadtxt(np.ones(3))


def test_genfromtxt_missing_values(array_device):
    lines = ["a,b,c", "1,,3", "4,N/A,6", "7,8,"]
    kw = dict(delimiter=",", skip_header=1, missing_values="N/A")
    got = npgpu.genfromtxt(lines, device=array_device, **kw)
    expected = np.genfromtxt(lines, **kw)
    assert isinstance(got, npgpu.Array) and got.dtype == np.float64
    np.testing.assert_array_equal(got.get(), expected)
    assert np.isnan(got.get()[[0, 1, 2], [1, 1, 2]]).all()
    filled = npgpu.genfromtxt(lines, filling_values=-1, dtype=np.int32, usecols=(1, 2), device=array_device, **kw)
    np.testing.assert_array_equal(filled.get(), [[-1, 3], [-1, 6], [8, -1]])
    with pytest.raises(NotImplementedError, match="masked"):
        npgpu.genfromtxt(lines, usemask=True, **kw)
    with pytest.raises(TypeError, match="structured"):
        npgpu.genfromtxt(lines, delimiter=",", names=True)
    with pytest.raises(ValueError):
        npgpu.genfromtxt(["1,2", "3,4,5"], delimiter=",")


def test_text_round_trip_with_gzip(tmp_path, array_device):
    a = npgpu.asarray(np.linspace(0, 1, 6).reshape(2, 3), device=array_device)
    npgpu.savetxt(tmp_path / "g.txt.gz", a)
    np.testing.assert_array_equal(npgpu.loadtxt(tmp_path / "g.txt.gz", device=array_device).get(), a.get())
    np.testing.assert_array_equal(npgpu.genfromtxt(tmp_path / "g.txt.gz", device=array_device).get(), a.get())


def test_print_options_change_repr(array_device):
    a = npgpu.asarray([1 / 3, 2 / 3], device=array_device)
    saved = npgpu.get_printoptions()
    try:
        npgpu.set_printoptions(precision=2)
        assert npgpu.get_printoptions()["precision"] == 2
        assert "0.33, 0.67" in repr(a) and "0.333" not in repr(a)
        assert str(a) == "[0.33 0.67]"
    finally:
        npgpu.set_printoptions(**saved)
    assert npgpu.get_printoptions() == saved
    with npgpu.printoptions(precision=1) as opts:
        assert opts["precision"] == 1
        assert str(a) == "[0.3 0.7]"
    assert npgpu.get_printoptions() == saved
    with pytest.raises((TypeError, ValueError)):
        npgpu.set_printoptions(precision="x")
    assert npgpu.get_printoptions() == saved


def test_array_repr_str_array2string_match_array(array_device, random_array):
    host = random_array((3, 4), np.float64)
    a = npgpu.asarray(host, device=array_device)
    assert npgpu.array_repr(a) == repr(a)
    assert npgpu.array_str(a) == str(a) == np.array_str(host)
    assert npgpu.array2string(a, precision=3, separator=",") == np.array2string(host, precision=3, separator=",")
    if array_device == "cpu":
        assert npgpu.array_repr(a, precision=2) == "Array" + np.array_repr(host, precision=2)[5:]
    else:
        assert npgpu.array_repr(a, precision=2).endswith("device='cuda:0')")
    assert npgpu.array_str(a, max_line_width=20) == np.array_str(host, max_line_width=20)
    assert npgpu.array_repr(host) == np.array_repr(host)
    with pytest.raises(TypeError, match="npgpu.Array"):
        npgpu.array2string([1, 2])
    with pytest.raises(TypeError, match="separator"):
        npgpu.array2string(a, separator=None)
    with pytest.raises(TypeError):
        npgpu.array_str(None)


def test_scalar_formatters_as_numpy(array_device):
    for x in (np.float32(0.1), np.float64(1 / 3), 2.5, np.float16(-0.0)):
        assert npgpu.format_float_positional(x) == np.format_float_positional(x)
        assert npgpu.format_float_scientific(x, precision=4) == np.format_float_scientific(x, precision=4)
    one = npgpu.asarray(np.float64(12345.678), device=array_device)
    assert npgpu.format_float_positional(one, precision=2) == "12345.68"
    assert npgpu.format_float_scientific(one, exp_digits=3) == np.format_float_scientific(12345.678, exp_digits=3)
    for n, w in ((5, None), (-3, 4), (0, None), (2**40, None)):
        assert npgpu.binary_repr(n, width=w) == np.binary_repr(n, width=w)
    assert npgpu.binary_repr(npgpu.asarray(np.int64(6), device=array_device)) == "110"
    assert [npgpu.base_repr(255, b) for b in (2, 16, 36)] == [np.base_repr(255, b) for b in (2, 16, 36)]
    assert npgpu.base_repr(-7, 3, padding=2) == np.base_repr(-7, 3, padding=2)


def test_scalar_formatters_errors(array_device):
    with pytest.raises(TypeError, match="scalar"):
        npgpu.binary_repr(npgpu.asarray([1, 2], device=array_device))
    with pytest.raises(TypeError):
        npgpu.format_float_positional(npgpu.asarray([1.0, 2.0], device=array_device))
    with pytest.raises(ValueError):
        npgpu.base_repr(5, 40)
    with pytest.raises(TypeError):
        npgpu.format_float_positional("1.5")


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64])
def test_fromfile_binary_and_text(array_device, tmp_path, random_array, dtype):
    h = random_array((7,), dtype)
    path = tmp_path / "x.bin"
    h.tofile(path)
    got = npgpu.fromfile(path, dtype=dtype, device=array_device)
    assert isinstance(got, npgpu.Array) and got.dtype == dtype and np.array_equal(got.get(), h)
    assert np.array_equal(npgpu.fromfile(str(path), dtype=dtype, count=3, device=array_device).get(), h[:3])
    skip = np.dtype(dtype).itemsize * 2
    assert np.array_equal(npgpu.fromfile(path, dtype=dtype, offset=skip, device=array_device).get(), h[2:])
    with open(path, "rb") as f:  # a file object, from its position
        f.seek(np.dtype(dtype).itemsize)
        assert np.array_equal(npgpu.fromfile(f, dtype=dtype, device=array_device).get(), h[1:])
    text = tmp_path / "x.txt"
    text.write_text("1.5, 2, -3")
    assert np.array_equal(npgpu.fromfile(text, sep=",", device=array_device).get(), [1.5, 2.0, -3.0])


def test_fromfile_errors(array_device, tmp_path):
    with pytest.raises(OSError):
        npgpu.fromfile(tmp_path / "missing.bin", device=array_device)
    with pytest.raises(TypeError, match="file"):
        npgpu.fromfile(42, device=array_device)
    path = tmp_path / "s.bin"
    np.zeros(2, dtype="U3").tofile(path)
    with pytest.raises(TypeError, match="dtype"):
        npgpu.fromfile(path, dtype="U3", device=array_device)


def test_fromstring_as_numpy(array_device):
    for text, sep, dtype in (("1, 2, 3.5", ",", float), ("4 5  6", " ", np.int64), (b"7;8", ";", np.float32)):
        got = npgpu.fromstring(text, dtype=dtype, sep=sep, device=array_device)
        want = np.fromstring(text, dtype=dtype, sep=sep)
        assert got.dtype == want.dtype and np.array_equal(got.get(), want)
    assert npgpu.fromstring("1 2 3", sep=" ", count=2, device=array_device).shape == (2,)
    with pytest.raises(ValueError, match="frombuffer"):
        npgpu.fromstring(b"\x00\x00\x00\x00", dtype=np.int32, sep="", device=array_device)
    with pytest.raises(TypeError, match="str or bytes"):
        npgpu.fromstring(3.5, sep=",", device=array_device)
    with pytest.raises(ValueError):  # NumPy's own refusal to parse text into strings
        npgpu.fromstring("1 2", sep=" ", dtype="U2", device=array_device)


def test_fromregex(array_device, tmp_path):
    path = tmp_path / "r.txt"
    path.write_text("x=1.5 y=22 z=-3\n")
    got = npgpu.fromregex(path, r"=(-?[\d.]+)", np.float64, device=array_device)
    assert np.array_equal(got.get(), [1.5, 22.0, -3.0])
    want = np.fromregex(path, r"=(-?[\d.]+)", [("v", np.float32)])["v"]
    same = npgpu.fromregex(str(path), r"=(-?[\d.]+)", [("v", np.float32)], device=array_device)
    assert same.dtype == np.float32 and np.array_equal(same.get(), want)
    with pytest.raises(TypeError, match="fields"):
        npgpu.fromregex(path, r"(\w)=(\S+)", [("k", "U1"), ("v", float)], device=array_device)
    with pytest.raises(OSError):
        npgpu.fromregex(tmp_path / "missing.txt", r"(\d)", np.int64, device=array_device)
