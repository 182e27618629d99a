"""The status objects `Checkpoint.restore` returns: assertions about what was matched."""

_SHOWN = 10


class CheckpointLoadStatus:
    """What a restore matched, TensorFlow's ``CheckpointLoadStatus``.

    Values whose Variables do not exist yet (an unbuilt layer, optimizer slots before the
    first step) are assigned when those Variables are created; the assertions look at the
    state at the time they are called. Each returns the status, so they chain.

    Example:
        >>> import os, tempfile
        >>> import companion as tf
        >>> prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
        >>> path = tf.train.Checkpoint(v=tf.Variable(1.0)).save(prefix)
        >>> status = tf.train.Checkpoint(v=tf.Variable(0.0)).restore(path)
        >>> status.assert_consumed() is status
        True
    """

    def __init__(self, restoration):
        self._restoration = restoration

    def assert_consumed(self):
        """Raises AssertionError unless every saved value and every Variable were matched."""
        self.assert_existing_objects_matched()
        left = self._restoration.values
        if left:  # TF's first unresolved node: the shallowest, in saved order
            path = min(left, key=lambda p: p.count("/"))
            name = self._restoration.names.get(path) or path.rsplit("/", 1)[-1]
            key = f"{path}/.ATTRIBUTES/VARIABLE_VALUE"
            raise AssertionError(
                f"Unresolved object in checkpoint (root).{path.replace('/', '.')}: attributes {{\n"
                f'  name: "VARIABLE_VALUE"\n  full_name: "{name}"\n  checkpoint_key: "{key}"\n}}\n'
                "has_checkpoint_values {\n  value: true\n}\n"
                f"{len(left)} checkpoint value(s) found no Variable (created later they would be "
                f"restored): {_listing(list(left))}")
        return self

    def assert_existing_objects_matched(self):
        """Raises AssertionError if a Variable that exists now received no value."""
        missing = self._restoration.unmatched_variables()
        if missing:
            shown = ", ".join(repr(v) for v in missing[:_SHOWN])
            raise AssertionError(
                f"Found {len(missing)} Python objects that were not bound to checkpointed values, likely "
                "due to changes in the Python program. Showing "
                f"{min(len(missing), _SHOWN)} of {len(missing)} unmatched objects: [{shown}]")
        return self

    def assert_nontrivial_match(self):
        """Raises AssertionError if no Variable (a Checkpoint's ``save_counter`` included) was restored."""
        if not self._restoration.restored:
            raise AssertionError("Nothing was restored: no Variable matched a path in the "
                                 "checkpoint. Compare the object structure with the saved one.")
        return self

    def expect_partial(self):
        """Marks a partial restore as intended (there are no warnings to silence here)."""
        return self


class InitializationOnlyStatus:
    """The status of ``restore(None)``: nothing is restored, Variables keep their values.

    As in TensorFlow, the assertions raise (nothing was matched); `expect_partial` does not.

    Example:
        >>> import companion as tf
        >>> status = tf.train.Checkpoint(v=tf.Variable(1.0)).restore(None)
        >>> status.expect_partial() is status
        True
    """

    def assert_consumed(self):
        """Raises AssertionError: no checkpoint was given."""
        raise AssertionError(_NOTHING)

    def assert_existing_objects_matched(self):
        """Raises AssertionError: no checkpoint was given."""
        raise AssertionError(_NOTHING)

    def assert_nontrivial_match(self):
        """Raises AssertionError: no checkpoint was given."""
        raise AssertionError(_NOTHING)

    def expect_partial(self):
        """Returns the status: restoring nothing is expected."""
        return self


_NOTHING = "No checkpoint specified (save_path=None); nothing is being restored."


def _listing(paths):
    shown = ", ".join(repr(p) for p in paths[:_SHOWN])
    return shown + (f" and {len(paths) - _SHOWN} more" if len(paths) > _SHOWN else "")
