"""For benchmarks/notebooks_vs_tf.py only: `tf.datasets` for a TensorFlow kernel, fed by companion's data.

The course notebooks load their data with `tf.datasets.load` (companion's offline stand-in for
`tensorflow_datasets`), which TensorFlow does not have. This module runs in the TensorFlow kernel:
`install(tf)` adds a `tf.datasets` whose `load` returns `tf.data.Dataset`s (or whole tensors for
`batch_size=-1`) built from the very arrays companion's `load` gives, exported once per call by the
companion environment into a cache folder (the benchmark's warm-up run fills it; timed runs only read
.npz files). `info` carries what the notebooks read: label names and class count, split sizes.
"""

import hashlib
import json
import os
import shlex
import subprocess
import types
from pathlib import Path

import numpy as np


class DatasetFilesNotFoundError(FileNotFoundError):
    """The data set's files are not on this machine (as companion's loader says)."""


def install(tf) -> None:
    tf.datasets = types.SimpleNamespace(load=_loader(tf), as_numpy=_as_numpy,
                                        DatasetFilesNotFoundError=DatasetFilesNotFoundError)


def _loader(tf):
    def load(name, split=None, batch_size=None, as_supervised=False, with_info=False, builder_kwargs=None,
             **ignored):
        specs = split if isinstance(split, (list, tuple)) else [split]
        exported = [_exported(name, spec, builder_kwargs) for spec in specs]
        results = [_build(tf, arrays, meta, batch_size, as_supervised) for arrays, meta in exported]
        result = results if isinstance(split, (list, tuple)) else results[0]
        if with_info:
            return result, _info(exported)
        return result
    return load


def _exported(name, spec, builder_kwargs):
    key = json.dumps([name, spec, builder_kwargs], sort_keys=True)
    folder = Path(os.environ["COMPANION_BENCH_DATA"])
    stem = folder / hashlib.sha256(key.encode()).hexdigest()[:20]
    if not stem.with_suffix(".json").exists():
        command = [*shlex.split(os.environ["COMPANION_BENCH_EXPORT"]), key, str(stem)]
        subprocess.run(command, check=True, capture_output=True)
    meta = json.loads(stem.with_suffix(".json").read_text())
    if meta.get("error") == "DatasetFilesNotFoundError":
        raise DatasetFilesNotFoundError(meta["message"])
    with np.load(stem.with_suffix(".npz")) as arrays:
        return {name: arrays[name] for name in arrays.files}, meta


def _build(tf, arrays, meta, batch_size, as_supervised):
    if as_supervised:
        first, second = meta["supervised_keys"]
        element = (arrays[first], arrays[second])
    else:
        element = dict(arrays)
    if batch_size == -1:
        return tf.nest.map_structure(tf.constant, element)
    dataset = tf.data.Dataset.from_tensor_slices(element)
    return dataset.batch(batch_size) if batch_size else dataset


def _info(exported):
    meta = exported[0][1]
    label = types.SimpleNamespace(names=meta["names"], num_classes=len(meta["names"]))
    splits = {spec: types.SimpleNamespace(num_examples=count) for spec, count in meta["splits"].items()}
    for _, each in exported:
        splits[each["spec"]] = types.SimpleNamespace(num_examples=each["num_examples"])
    return types.SimpleNamespace(features={"label": label}, splits=splits, name=meta["name"])


def _as_numpy(value):
    if hasattr(value, "as_numpy_iterator"):
        return value.as_numpy_iterator()
    if isinstance(value, dict):
        return {key: _as_numpy(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_as_numpy(item) for item in value)
    return value.numpy() if hasattr(value, "numpy") else value
