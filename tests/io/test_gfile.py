"""``io.gfile`` on local paths behaves as TF 2.21's (values and error classes recorded from TF)."""

import os

import pytest

import companion as tf

gfile = tf.io.gfile


@pytest.fixture
def folder(tmp_path):
    with gfile.GFile(str(tmp_path / "a.txt"), "w") as f:
        f.write("line1\nline2\n")
    return tmp_path


def test_text_and_binary_reads(folder):
    path = str(folder / "a.txt")
    with gfile.GFile(path) as f:
        assert f.read() == "line1\nline2\n"
    with gfile.GFile(path, "rb") as f:  # TF: b'lin' 3 b'e1\n' [b'line2\n']
        assert (f.read(3), f.tell(), f.readline(), f.readlines()) == (b"lin", 3, b"e1\n", [b"line2\n"])
    with gfile.GFile(path) as f:
        assert list(f) == ["line1\n", "line2\n"]
        assert (f.size(), f.name, f.mode) == (12, path, "r")


def test_append_seek_and_bytes_in_text_mode(folder):
    path = str(folder / "a.txt")
    with gfile.GFile(path, "a") as f:
        f.write(b"more")  # TF accepts bytes in text mode and str in binary mode
    with gfile.GFile(path) as f:
        assert (f.readline(), f.read()) == ("line1\n", "line2\nmore")
    with gfile.GFile(path) as f:
        f.seek(2)
        assert (f.read(3), f.tell()) == ("ne1", 5)


def test_a_missing_file_fails_when_read_not_when_opened(folder):
    f = gfile.GFile(str(folder / "nope"))  # TF: no error until the first read
    with pytest.raises(tf.errors.NotFoundError, match="nope"):
        f.read()


def test_mode_errors(folder):
    with pytest.raises(tf.errors.InvalidArgumentError):  # TF: InvalidArgumentError
        gfile.GFile(str(folder / "a.txt"), "x")
    with pytest.raises(tf.errors.PermissionDeniedError):  # TF: PermissionDeniedError
        gfile.GFile(str(folder / "a.txt"), "r").write("x")


def test_folders(folder):
    d = str(folder)
    gfile.makedirs(os.path.join(d, "x/y/z"))
    gfile.makedirs(os.path.join(d, "x/y/z"))  # TF: an existing folder is fine
    gfile.mkdir(os.path.join(d, "x"))  # TF: also fine for mkdir
    with pytest.raises(tf.errors.NotFoundError):  # TF: parent missing
        gfile.mkdir(os.path.join(d, "q/r"))
    gfile.mkdir(os.path.join(d, "q"))
    assert sorted(gfile.listdir(d)) == ["a.txt", "q", "x"]
    assert (gfile.isdir(d), gfile.isdir(os.path.join(d, "a.txt")), gfile.isdir(d + "/nope")) == (True, False,
                                                                                                 False)
    assert sorted(gfile.glob(d + "/*")) == [os.path.join(d, n) for n in ("a.txt", "q", "x")]
    assert gfile.glob(d + "/*.nope") == []
    for bad in (os.path.join(d, "a.txt"), d + "/nope"):
        with pytest.raises(tf.errors.NotFoundError):  # TF: NotFoundError for a file and a missing path
            gfile.listdir(bad)


def test_walk_top_down_and_bottom_up(folder):
    d = str(folder)
    gfile.makedirs(os.path.join(d, "x/y"))
    gfile.mkdir(os.path.join(d, "q"))
    walked = [(top.replace(d, "D"), sorted(dirs), sorted(files)) for top, dirs, files in gfile.walk(d)]
    assert sorted(walked) == [("D", ["q", "x"], ["a.txt"]), ("D/q", [], []), ("D/x", ["y"], []),
                              ("D/x/y", [], [])]
    bottom_up = [top.replace(d, "D") for top, _, _ in gfile.walk(d, topdown=False)]
    assert bottom_up.index("D/x/y") < bottom_up.index("D/x") < bottom_up.index("D")
    assert list(gfile.walk(d + "/nope")) == []  # TF: nothing, no error


def test_stat_copy_rename_remove(folder):
    d, path = str(folder), str(folder / "a.txt")
    info = gfile.stat(path)
    assert (info.length, info.is_directory, isinstance(info.mtime_nsec, int)) == (12, False, True)
    with pytest.raises(tf.errors.NotFoundError):
        gfile.stat(d + "/nope")
    gfile.copy(path, d + "/b.txt")
    with pytest.raises(tf.errors.AlreadyExistsError):  # TF: AlreadyExistsError without overwrite
        gfile.copy(path, d + "/b.txt")
    gfile.copy(path, d + "/b.txt", overwrite=True)
    with pytest.raises(tf.errors.AlreadyExistsError):
        gfile.rename(path, d + "/b.txt")
    gfile.rename(d + "/b.txt", d + "/c.txt")
    gfile.rename(d + "/c.txt", path, overwrite=True)
    assert gfile.exists(path) and not gfile.exists(d + "/c.txt")
    gfile.mkdir(d + "/q")
    with pytest.raises(tf.errors.FailedPreconditionError):  # TF: a folder cannot be removed with remove
        gfile.remove(d + "/q")
    gfile.remove(path)
    with pytest.raises(tf.errors.NotFoundError):
        gfile.remove(path)
    gfile.rmtree(d + "/q")
    with pytest.raises(tf.errors.NotFoundError):
        gfile.rmtree(d + "/q")
    assert gfile.listdir(d) == []


def test_public_names_are_tfs():
    # TF 2.21's dir(tf.io.gfile) without underscores
    assert sorted(gfile.__all__) == ["GFile", "copy", "exists", "get_registered_schemes", "glob", "isdir",
                                     "join", "listdir", "makedirs", "mkdir", "remove", "rename", "rmtree",
                                     "stat", "walk"]
