"""``companion.keras.models``: `Model`, `Sequential`, cloning, and saving and loading whole models."""

from companion.keras.models._cloning import clone_model
from companion.keras.models._model import Model
from companion.keras.models._sequential import Sequential
from companion.keras.saving._keras_file import load_model, model_from_json, save_model

__all__ = ["Model", "Sequential", "clone_model", "load_model", "model_from_json", "save_model"]
