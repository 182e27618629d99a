"""Harnesses of lecture lab L5 (embeddings): cosine similarities and nearest neighbours of a word.

Each call passes the case's embedding matrix as a float32 companion tensor (as the notebook
holds it, `layer.embeddings`' value) and returns what the learner's function gave back; the
neighbours are read as a list of Python ints, whatever sequence held them.
"""

from __future__ import annotations

import numpy as np

import companion as tf


def cosine_similarities(function, embeddings, index) -> dict:
    """`cosine_similarities(embeddings, index)`: the similarity of row ``index`` to every row."""
    return {"similarities": function(tf.constant(np.asarray(embeddings, np.float32)), int(index))}


def nearest_neighbours(function, embeddings, index, k) -> dict:
    """`nearest_neighbours(embeddings, index, k)`: the ``k`` rows most similar to row ``index``."""
    found = function(tf.constant(np.asarray(embeddings, np.float32)), int(index), int(k))
    try:
        indices = [int(i) for i in np.asarray(found).reshape(-1).tolist()]
    except (TypeError, ValueError):
        indices = None
    return {"number of neighbours": None if indices is None else len(indices), "neighbours": indices}
