"""Every docstring example in the companion package runs and prints what it shows."""

import doctest
import importlib
import pkgutil

import pytest

import companion


def _modules():
    names = ["companion"]
    for info in pkgutil.walk_packages(companion.__path__, prefix="companion."):
        names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name, globs={}):
        if test.filename and not test.filename.endswith(module.__file__.rsplit("/", 1)[-1]):
            continue  # re-exported objects are checked in the module that defines them
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
