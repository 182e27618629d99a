"""Dataset arguments: one traced signature per `DatasetSpec`, as in TensorFlow.

TF passes a dataset to a `function` as a tensor (a variant), so ``f(ds_a)`` and ``f(ds_b)`` share
one trace when their ``element_spec`` is the same, whatever their sizes. companion stages a loop
over a dataset with the dataset's pass in hand (its elements become arrays fed to the compiled
program, `companion.autograph._dataset_loop`), so a program is tied to the number of elements of
the dataset it was staged with. `DatasetGenericFunction` keeps TF's visible behaviour, as
`ShapeGenericFunction` does for ``None`` dimensions: the Python function is traced once per
``DatasetSpec`` (that trace is the one counted, its prints are the ones shown), and a call with
another dataset of that spec stages the function again for it, silently (prints discarded, not
counted), keeping the most recent datasets' programs.

String tensor arguments follow the same rule: string ops run on the host while tracing, so a
program is built with its strings' values; TF traces once per ``TensorSpec(dtype=string)``.
A call with other strings stages the function again for them, silently (the values are the key).
"""

from companion._staging._concrete_surface import StagedAgain
from companion._staging._dataset_specs import argument_key

_KEPT = 8  # programs kept for datasets other than the traced one (the most recently used)


class DatasetGenericFunction(StagedAgain):
    """A `ConcreteFunction` whose signature holds `DatasetSpec`s (or string tensors); staged per
    dataset (or string values) passed."""

    stages_by_value = True  # a call binds any string tensor of the traced shape (`_concrete_call`)

    def __init__(self, name, first, datasets, restage, string_shapes=None):
        self.name = name
        # leaf index -> the shape an input_signature gave a string argument (``None`` dims)
        self.string_shapes = string_shapes or {}
        self._first = first
        self._datasets = tuple(datasets)  # the datasets (and strings) the counted trace was staged with
        self._key = tuple(argument_key(d) for d in datasets)
        self._restage = restage  # datasets -> ConcreteFunction staged for them, quietly
        self._others = {}  # argument keys -> (datasets, ConcreteFunction), most recent last

    def specialization(self, datasets):
        """The ConcreteFunction staged for these datasets (staged now if new)."""
        if datasets is None or all(a is b for a, b in zip(datasets, self._datasets)):
            return self._first
        key = tuple(argument_key(d) for d in datasets)
        if key == self._key:
            return self._first
        found = self._others.pop(key, None)
        if found is None:
            found = (tuple(datasets), self._restage(datasets))
            while len(self._others) >= _KEPT:
                self._others.pop(next(iter(self._others)))
        self._others[key] = found  # (the datasets are kept with it, so their ids stay theirs)
        return found[1]

    def call(self, flat_args, variables=None, datasets=None):
        return self.specialization(datasets).call(flat_args, variables)

    # -- what a ConcreteFunction shows: the counted trace's (`StagedAgain`) ------------------
    @property
    def _output_specs(self):
        return self._first._output_specs

    @property
    def _input_specs(self):
        return self._first._input_specs
