"""``companion.lookup``: TensorFlow's ``tf.lookup`` key-value tables (static, vocabulary, mutable)."""

from companion.lookup import experimental
from companion.lookup._initializers import KeyValueTensorInitializer, TextFileIndex, TextFileInitializer
from companion.lookup._tables import StaticHashTable, StaticVocabularyTable

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable", "TextFileIndex",
           "TextFileInitializer", "experimental"]
