"""`load`: rebuilds a saved object: its Variables by attribute path, its functions and signatures."""

import json
import os
import zipfile

import jax
from jax import export

from companion._core._convert import convert_to_tensor
from companion._core._shape import TensorShape
from companion._core._tensor import Tensor
from companion._core._tensor_spec import TensorSpec
from companion._core._variable import Variable
from companion.saved_model import _program
from companion.saved_model._save import FORMAT, MANIFEST, PROGRAM_FILE, VERSION
from companion.train import _checkpoint_file


def load(export_dir, tags=None, options=None):
    """Loads what `save` wrote to ``export_dir``: an object whose attributes are the saved
    Variables (restored, assignable) and functions, with ``signatures`` (a dict of functions
    taking keyword tensors and returning dicts of tensors, as in TensorFlow).

    Raises:
        OSError: ``export_dir`` holds no companion SavedModel.
    """
    export_dir = os.fspath(export_dir)
    manifest, serialized = _read_saved_model(export_dir)
    values, _ = _checkpoint_file.read(os.path.join(export_dir, "variables", "variables"))
    root = LoadedObject()
    variables = {}
    for entry in manifest["variables"]:
        var = Variable(values[entry["path"]], trainable=entry["trainable"], name=entry["name"].split(":")[0])
        variables[entry["path"]] = var
        if not entry["path"].startswith("_captured/"):
            _attach(root, entry["path"], var)
    object.__setattr__(root, "_variables", list(variables.values()))
    programs = {name: LoadedFunction(name, entry, variables, serialized[entry["file"]])
                for name, entry in manifest["programs"].items()}
    for name in manifest["functions"]:
        object.__setattr__(root, name, programs[name])
    signatures = {key: SignatureFunction(key, programs[f"signature:{key}"]) for key in manifest["signatures"]}
    object.__setattr__(root, "signatures", signatures)
    return root


def contains_saved_model(export_dir):
    """Whether ``export_dir`` holds a SavedModel: a ``saved_model.pb`` (companion's, or TensorFlow's),
    or the ``saved_model.json`` of an earlier version."""
    export_dir = os.fspath(export_dir)
    return any(os.path.isfile(os.path.join(export_dir, name)) for name in (PROGRAM_FILE, MANIFEST))


class LoadedObject:
    """A loaded SavedModel (or one of its sub-objects): saved Variables and functions as attributes."""

    @property
    def variables(self):
        """Every restored Variable (companion extra: TF's loaded objects have no such list)."""
        return tuple(self.__dict__.get("_variables", ()))

    @property
    def trainable_variables(self):
        return tuple(v for v in self.variables if v.trainable)

    def __call__(self, *args, **kwargs):
        call = self.__dict__.get("__call__")
        if call is None:
            raise TypeError("This loaded object is not callable: no __call__ function with an "
                            "input_signature was saved. Call one of its signatures: "
                            "loaded.signatures['serving_default'](...).")
        return call(*args, **kwargs)

    def __repr__(self):
        names = sorted(n for n in self.__dict__ if not n.startswith("_") or n == "__call__")
        return f"<companion.saved_model loaded object: {', '.join(names)}>"


class LoadedFunction:
    """A saved function: runs its exported program on the loaded Variables' current values."""

    def __init__(self, name, entry, variables, serialized):
        self.__name__ = name
        self._exported = export.deserialize(bytearray(serialized))
        self._run = jax.jit(self._exported.call)
        self.inputs = [TensorSpec(i["shape"], i["dtype"], i["name"]) for i in entry["inputs"]]
        self._outputs = entry["outputs"]
        self._variables = [variables[p] for p in entry["variables"]]
        self._written = [variables[p] for p in entry["written"]]

    def __call__(self, *args, **kwargs):
        if len(args) > len(self.inputs):
            raise TypeError(f"{self.__name__} takes {len(self.inputs)} argument(s) "
                            f"({', '.join(s.name for s in self.inputs)}). Received {len(args)} positional.")
        named = dict(zip([s.name for s in self.inputs], args))
        for key, value in kwargs.items():
            if key in named or key not in [s.name for s in self.inputs]:
                raise TypeError(f"{self.__name__}: unexpected or repeated argument {key!r}. Its arguments "
                                f"are {[s.name for s in self.inputs]}.")
            named[key] = value
        missing = [s.name for s in self.inputs if s.name not in named]
        if missing:
            raise TypeError(f"{self.__name__}: missing argument(s) {missing}. Its arguments are "
                            f"{[s.name for s in self.inputs]}.")
        arrays = [self._checked(spec, named[spec.name])._value for spec in self.inputs]
        outputs = self._run([v._value for v in self._variables], *arrays)
        n_out = len(outputs) - len(self._written)
        for var, value in zip(self._written, outputs[n_out:]):
            var._set_value(value)
        return _program.decode_tree(self._outputs, [Tensor(o) for o in outputs[:n_out]])

    def _checked(self, spec, value):
        tensor = convert_to_tensor(value, dtype=spec.dtype if not hasattr(value, "_value") else None)
        if tensor.dtype != spec.dtype:
            raise TypeError(f"{self.__name__}: argument {spec.name!r} must be {spec.dtype.name}. Received a "
                            f"tensor of dtype {tensor.dtype.name}. Cast it first (companion.cast).")
        if not spec.shape.is_compatible_with(TensorShape(tensor.shape)):
            raise ValueError(f"{self.__name__}: argument {spec.name!r} must have shape {spec.shape}. "
                             f"Received shape {tensor.shape}.")
        return tensor

    def __repr__(self):
        args = ", ".join(f"{s.name}: {s.dtype.name}{s.shape}" for s in self.inputs)
        return f"<companion.saved_model function {self.__name__}({args})>"


class SignatureFunction:
    """A serving signature: keyword tensor arguments in, a dict of tensors out (``output_0``... for
    a function that returned a tensor or a tuple), as TensorFlow's ``loaded.signatures[key]``."""

    def __init__(self, key, function):
        self.name = key
        self._function = function
        self.inputs = function.inputs

    def __call__(self, *args, **kwargs):
        if args and not (len(args) == 1 and len(self.inputs) == 1 and not kwargs):
            raise TypeError(f"Signature {self.name!r} takes keyword arguments "
                            f"({', '.join(s.name for s in self.inputs)}=...). "
                            f"Received {len(args)} positional.")
        out = self._function(*args, **kwargs)
        if isinstance(out, dict):
            return out
        if isinstance(out, (list, tuple)):
            return {f"output_{i}": t for i, t in enumerate(out)}
        return {"output_0": out}

    @property
    def structured_input_signature(self):
        return (), {s.name: s for s in self.inputs}

    def __repr__(self):
        return f"<companion.saved_model signature {self.name!r}>"


def _read_saved_model(export_dir):
    """``(manifest, {program file: serialized program})`` of the SavedModel in ``export_dir``: the
    archive ``saved_model.pb``, or the ``saved_model.json`` and ``functions/`` of an earlier version."""
    archive_path, legacy_path = (os.path.join(export_dir, name) for name in (PROGRAM_FILE, MANIFEST))
    if os.path.isfile(archive_path):
        if not zipfile.is_zipfile(archive_path):
            raise OSError(f"{archive_path!r} is not a companion SavedModel: TensorFlow wrote it (a "
                          "protocol buffer), and companion reads only the SavedModels it saved itself.")
        with zipfile.ZipFile(archive_path) as archive:
            manifest = _checked(json.loads(archive.read(MANIFEST)), archive_path)
            return manifest, {e["file"]: archive.read(e["file"]) for e in manifest["programs"].values()}
    if not os.path.isfile(legacy_path):
        raise OSError(f"SavedModel file does not exist at: {export_dir}{os.sep}"
                      "{saved_model.pbtxt|saved_model.pb}")
    with open(legacy_path) as handle:
        manifest = _checked(json.load(handle), legacy_path)
    serialized = {}
    for entry in manifest["programs"].values():
        with open(os.path.join(export_dir, entry["file"]), "rb") as handle:
            serialized[entry["file"]] = handle.read()
    return manifest, serialized


def _checked(manifest, path):
    if manifest.get("format") != FORMAT or manifest.get("version", 0) > VERSION:
        raise OSError(f"{path!r} is not a companion SavedModel of version <= {VERSION}.")
    return manifest


def _attach(root, path, var):
    parts = [p.replace("%2F", "/").replace("%25", "%") for p in path.split("/")]
    node = root
    for part in parts[:-1]:
        child = node.__dict__.get(part)
        if child is None:
            child = LoadedObject()
            object.__setattr__(node, part, child)
        node = child
    object.__setattr__(node, parts[-1], var)
