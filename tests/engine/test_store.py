import numpy as np

from engine.serving import store


def test_built_once_then_loaded(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "_data_dir", tmp_path)
    calls = []

    def build():
        calls.append(1)
        return np.arange(5, dtype=np.uint8)

    first = store.load_or_build("demo.npy", build)
    again = store.load_or_build("demo.npy", build)
    assert calls == [1] and again.tolist() == first.tolist() == [0, 1, 2, 3, 4]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.npy", "demo.npy.crc32"]  # no temporary file left


def test_a_truncated_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setattr(store, "_data_dir", tmp_path)
    (tmp_path / "broken.npy").write_bytes(b"")
    assert store.load_or_build("broken.npy", lambda: np.ones(3)).tolist() == [1, 1, 1]
    assert np.load(tmp_path / "broken.npy").tolist() == [1, 1, 1]
