"""Exceptions of the grader; each subclasses the builtin an instructor's script would catch."""


class NotebookFormatError(ValueError):
    """A file is not a notebook the grader can read (bad JSON, wrong nbformat, broken markers)."""


class UnknownAssignmentError(LookupError):
    """No hidden specification exists for the assignment name given on the command line."""


class SpecError(ValueError):
    """A hidden specification is malformed (no cases, duplicate exercise ids, bad values)."""


class SandboxError(RuntimeError):
    """The sandbox could not be set up or the child process broke the grader's protocol."""


class ReferenceOutputsError(RuntimeError):
    """The solution notebook failed on a hidden case, so no reference outputs could be computed."""


class LabsOutOfSyncError(RuntimeError):
    """labs/ differs from what `companion-labs build` would generate from solutions/."""
