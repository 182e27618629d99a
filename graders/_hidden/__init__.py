"""Hidden checks, one module per assignment; read only by the autograder (the sandbox hides this folder)."""
