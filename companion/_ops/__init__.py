"""The op catalogue: every op once, as a pure JAX function plus its public TF-style wrapper."""
