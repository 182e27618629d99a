"""`save`: writes a `Module` (or Keras model) with its Variables and signature functions."""

import hashlib
import io
import json
import os
import zipfile

from companion._core._shape import TensorShape
from companion._core._tensor_spec import TensorSpec
from companion._staging._function import Function
from companion.saved_model import _program
from companion.train import _checkpoint_file
from companion.train._object_graph import walk

PROGRAM_FILE, FINGERPRINT_FILE, ASSETS_DIR = "saved_model.pb", "fingerprint.pb", "assets"  # TF's names
MANIFEST = "saved_model.json"  # the manifest's name inside PROGRAM_FILE (a file of its own before)
FORMAT = "companion.saved_model"
VERSION = 1
DEFAULT_SIGNATURE = "serving_default"


def save(obj, export_dir, signatures=None, options=None):
    """Saves ``obj``'s Variables and its `function`s that have an ``input_signature``.

    Each such function (a method or an attribute of ``obj``) is staged once, ``None``
    dimensions kept symbolic, and serialized with ``jax.export``: `load` runs it without the
    Python source. ``signatures`` is a function or a dict ``{key: function}`` (functions with
    an ``input_signature``); by default a Keras model gets ``serving_default`` from its call,
    and an object with exactly one such function gets it as ``serving_default``.

    Functions without an ``input_signature`` and functions of sub-objects are not saved.
    The format is companion's own (see `companion.saved_model`).
    """
    export_dir = os.fspath(export_dir)
    graph = walk(_Attributes(obj) if _is_companion_object(obj) else obj)
    functions = _functions_of(obj)
    signatures = _signatures(obj, functions, signatures)
    programs = {name: _program.export_function(fn) for name, fn in functions.items()}
    programs.update({f"signature:{key}": _program.export_function(fn) for key, fn in signatures.items()})
    _add_captured(graph, programs)
    os.makedirs(os.path.join(export_dir, "variables"), exist_ok=True)
    os.makedirs(os.path.join(export_dir, ASSETS_DIR), exist_ok=True)
    entries, members = {}, {}
    for index, (name, program) in enumerate(programs.items()):
        member = f"functions/program_{index}.jaxexport"
        members[member] = program.serialized
        entries[name] = {
            "file": member,
            "inputs": [{"name": s.name, "shape": s.shape.as_list(), "dtype": s.dtype.name}
                       for s in program.inputs],
            "outputs": program.outputs,
            "variables": [graph.path_of(v) for v in program.variables],
            "written": [graph.path_of(v) for v in program.written],
        }
    variables = [{"path": path, "name": var.name, "trainable": bool(var.trainable)}
                 for path, var in graph.variables.items()]
    _checkpoint_file.write(os.path.join(export_dir, "variables", "variables"), graph)
    manifest = {"format": FORMAT, "version": VERSION, "programs": entries,
                "functions": sorted(functions), "signatures": sorted(signatures), "variables": variables}
    archive = _archive({MANIFEST: json.dumps(manifest, indent=1).encode(), **members})
    _checkpoint_file.atomic_write(os.path.join(export_dir, FINGERPRINT_FILE),
                                  lambda handle: json.dump(_fingerprint(archive, export_dir), handle))
    # written last: a directory holds a SavedModel once saved_model.pb exists, as in TF
    _checkpoint_file.atomic_write(os.path.join(export_dir, PROGRAM_FILE), lambda h: h.write(archive), "wb")
    for stale in (os.path.join(export_dir, "saved_model.json"), os.path.join(export_dir, "functions")):
        _remove_earlier_layout(stale)


def _archive(members):
    """The bytes of a zip archive of ``members`` ({name: bytes}): companion's ``saved_model.pb``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _fingerprint(archive, export_dir):
    """``fingerprint.pb``'s content: 64-bit hashes of the program archive and of the checkpoint's
    index, the fields of TF's fingerprint that apply to companion's format."""
    index_file = os.path.join(export_dir, "variables", "variables" + _checkpoint_file.INDEX_SUFFIX)
    with open(index_file, "rb") as handle:
        index = handle.read()
    return {"format": "companion.fingerprint", "saved_model_checksum": _hash64(archive),
            "checkpoint_hash": _hash64(index)}


def _hash64(data):
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "little")


def _remove_earlier_layout(path):
    """Deletes what an earlier version wrote to the same directory (saved_model.json, functions/),
    which `load` would otherwise still find."""
    if os.path.isfile(path):
        os.remove(path)
    elif os.path.isdir(path):
        for name in os.listdir(path):
            if name.endswith(".jaxexport"):
                os.remove(os.path.join(path, name))
        try:
            os.rmdir(path)
        except OSError:  # files of others are never deleted
            pass


def _functions_of(obj):
    """The `function`s with an input signature among ``obj``'s attributes (methods included)."""
    found = {}
    names = set(vars(obj)) if hasattr(obj, "__dict__") else set()
    names |= {n for klass in type(obj).__mro__ for n, v in vars(klass).items() if isinstance(v, Function)}
    for name in sorted(names):
        if name.startswith("_") and name != "__call__":
            continue
        value = getattr(obj, name, None)
        if isinstance(value, Function) and value.input_signature is not None:
            found[name] = value
    return found


def _signatures(obj, functions, signatures):
    if signatures is None:
        if getattr(type(obj), "_is_layer", False):
            serving = _keras_serving(obj)
            return {DEFAULT_SIGNATURE: serving} if serving is not None else {}
        return {DEFAULT_SIGNATURE: next(iter(functions.values()))} if len(functions) == 1 else {}
    if not isinstance(signatures, dict):
        signatures = {DEFAULT_SIGNATURE: signatures}
    for key, fn in signatures.items():
        if not isinstance(fn, Function) or fn.input_signature is None:
            raise ValueError(f"saved_model.save: signature {key!r} must be a companion.function with an "
                             f"input_signature (companion saves a signature by staging its Python function "
                             f"with symbolic shapes). Received: {fn!r}")
    return dict(signatures)


def _keras_serving(model):
    """The serving signature of a Keras model or layer, as TF's Keras saves it: over its single
    input; for a subclassed model, over the shape of its first call (any batch size); None for one
    never called (TF saves it without signatures)."""
    try:
        inputs = model.inputs
    except AttributeError:
        inputs = None
    if inputs and len(inputs) == 1:
        spec = TensorSpec(inputs[0].shape, inputs[0].dtype, "inputs")
    else:
        shape = getattr(model, "_build_input_shape", None)
        if inputs or not isinstance(shape, (TensorShape, tuple, list)) or not _is_one_shape(shape):
            if not getattr(model, "built", False):
                return None
            raise ValueError("saved_model.save: a Keras model is saved with a serving signature built from "
                             "its single input, but this model has several inputs. Pass signatures="
                             "{'serving_default': companion.function(..., input_signature=[...])}.")
        dims = TensorShape(shape).as_list()
        spec = TensorSpec([None] + dims[1:] if dims else dims, model.compute_dtype, "inputs")
    return Function(lambda inputs: model(inputs, training=False), "serving_default", [spec])


def _is_one_shape(shape):
    return isinstance(shape, TensorShape) or all(d is None or isinstance(d, int) for d in shape)


def _add_captured(graph, programs):
    """Names the Variables a program reads that ``obj``'s attributes do not reach."""
    for program in programs.values():
        for var in program.variables + program.written:
            if graph.path_of(var) is None:
                path = f"_captured/{len(graph.variables)}"
                graph.variables[path] = var
                graph.paths[id(var)] = path


def _is_companion_object(obj):
    """A plain `companion.Module` (not a user subclass, not a Keras object): walked by attributes."""
    kind = type(obj)
    return (kind.__module__ or "").startswith("companion.") and not hasattr(kind, "_checkpoint_children") \
        and hasattr(obj, "__dict__")


class _Attributes:
    """Presents an object's public attributes to the object-graph walk."""

    def __init__(self, obj):
        self._obj = obj

    def _checkpoint_children(self):
        return [(k, v) for k, v in vars(self._obj).items() if not k.startswith("_")]
