"""`Module`: TensorFlow's ``tf.Module``, a named container whose Variables and submodules are
found by walking its attributes.

Attributes are visited in sorted name order, and inside them lists, tuples, namedtuples and
dicts (in sorted key order, as `companion.nest`); each Variable or Module is listed once,
a module's own findings before those of its submodules.
"""

import functools
import re

from companion._core._nest import flatten_with_paths
from companion._core._scopes import name_scope

__all__ = ["Module"]

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class Module:
    """A named container of Variables and other modules (TensorFlow's ``tf.Module``).

    Assign Variables and modules as attributes (directly, or in lists, tuples and dicts):
    `variables`, `trainable_variables` and `submodules` find them, so a training step can
    differentiate with respect to ``module.trainable_variables``.

    Example:
        >>> import companion as tf
        >>> class Dense(tf.Module):
        ...     def __init__(self, units, name=None):
        ...         super().__init__(name=name)
        ...         self.w = tf.Variable(tf.ones((2, units)), name="w")
        ...         self.b = tf.Variable(tf.zeros(units), trainable=False, name="b")
        ...     def __call__(self, x):
        ...         return tf.matmul(x, self.w) + self.b
        >>> class MLP(tf.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.layers = [Dense(2), Dense(2)]
        >>> model = MLP()
        >>> model.name, len(model.submodules), len(model.variables), len(model.trainable_variables)
        ('mlp', 2, 4, 2)
    """

    def __init__(self, name=None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not isinstance(name, str) or not _IDENTIFIER.match(name):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid Python "
                             "identifiers (e.g. a valid class name).\nLetters, digits and underscores, not "
                             "starting with a digit.")
        self._name = name
        with name_scope(name) as scope:
            self._scope_name = scope

    @property
    def name(self):
        """The module's name (by default its class name in snake_case)."""
        return self.__dict__.get("_name") or _camel_to_snake(type(self).__name__)

    @property
    def name_scope(self):
        """A `name_scope` for this module: ``with module.name_scope:`` opens it."""
        scope = self.__dict__.get("_scope_name") or f"{self.name}/"
        return name_scope(scope)

    @property
    def variables(self):
        """Every Variable of this module and its submodules, each once."""
        return tuple(self._flatten(predicate=_is_variable))

    @property
    def trainable_variables(self):
        """The Variables of `variables` that are trainable."""
        return tuple(self._flatten(predicate=lambda x: _is_variable(x) and x.trainable))

    @property
    def non_trainable_variables(self):
        """The Variables of `variables` that are not trainable."""
        return tuple(self._flatten(predicate=lambda x: _is_variable(x) and not x.trainable))

    @property
    def submodules(self):
        """Every module reachable from this one's attributes (not itself), each once."""
        return tuple(self._flatten(predicate=_is_module))

    def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None, with_path=False,
                 expand_composites=False):
        """The objects found in attributes (and, when ``recursive``, in submodules) that match
        ``predicate``, as TF's ``Module._flatten``: each once, or with ``with_path`` every
        occurrence as ``(path, object)`` with ``path`` the tuple of attribute names, indices and keys.
        """
        predicate = predicate or (lambda _: True)
        return _walk(self, recursive, predicate, attribute_traversal_key, with_path, (),
                     seen={id(self)}, stack=set())

    @classmethod
    def with_name_scope(cls, method):
        """Decorates ``method`` so it runs inside the module's `name_scope`.

        Example:
            >>> import companion as tf
            >>> class Block(tf.Module):
            ...     @tf.Module.with_name_scope
            ...     def scope(self):
            ...         return tf.get_current_name_scope()
            >>> Block(name="block").scope()
            'block'
        """

        @functools.wraps(method)
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)

        return wrapped

    # no __repr__: TF prints a Module as Python does, ``<__main__.Dense object at 0x...>``


def _walk(module, recursive, predicate, order, with_path, module_path, seen, stack):
    found_modules = []
    attributes = vars(module)
    for key in sorted(attributes, key=order):
        try:
            leaves = flatten_with_paths(attributes[key])
        except (TypeError, ValueError) as error:
            raise ValueError(f"Error processing property {key!r} of {_tracked_repr(attributes[key])}") \
                from error
        for leaf_path, leaf in leaves:
            path = module_path + (key,) + leaf_path
            if not with_path:
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
            if predicate(leaf):
                yield (path, leaf) if with_path else leaf
            if recursive and _is_module(leaf):
                found_modules.append((path, leaf))
    stack.add(id(module))
    for path, sub in found_modules:
        if id(sub) not in stack:
            yield from _walk(sub, recursive, predicate, order, with_path, path, seen, stack)
    stack.discard(id(module))


def _tracked_repr(value):
    """How TF shows an attribute it tracks: lists and dicts in its wrappers."""
    wrapper = {list: "ListWrapper", dict: "DictWrapper"}.get(type(value))
    return f"{wrapper}({value!r})" if wrapper else repr(value)


def _is_variable(x):
    return getattr(x, "_is_variable", False)


def _is_module(x):
    return isinstance(x, Module)


def _camel_to_snake(name):
    return re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name).lower()
