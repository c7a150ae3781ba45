"""Lossless JSON round trip for the model's frozen dataclasses.

``to_json(obj)`` turns a dataclass (and the tuples, dicts and unions inside it) into plain JSON
values; ``from_json(cls, data)`` builds it back, checking types as it goes. A malformed document
raises :class:`rules.errors.InvalidDocument` naming the path of the bad value.
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

from .errors import InvalidDocument

T = TypeVar("T")


def to_json(obj: object) -> Any:
    """Return ``obj`` as JSON values (dicts, lists, str, int, float, bool, None)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_json(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in obj.items()}
    return obj


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_json(cls: type[T], data: Any, path: str = "$") -> T:
    """Build an instance of dataclass ``cls`` from JSON values.

    Raise :class:`InvalidDocument` when a key is missing or unknown, or a value has the wrong type.
    """
    result: T = _convert(cls, data, path)
    return result


_JSON_ORIGINS = frozenset({type(None), bool, int, float, str, list, dict})


@cache
def _is_json_alias(tp: Any) -> bool:
    """Return True for the model's ``JSON`` alias (a union of every JSON type), however it was expanded."""
    origin = get_origin(tp)
    if origin not in (Union, types.UnionType):
        return False
    return {get_origin(a) or a for a in get_args(tp)} == _JSON_ORIGINS


def _check_json(data: Any, path: str) -> Any:
    """Return ``data`` if it is made only of JSON values; else raise :class:`InvalidDocument` at its path."""
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, float):
        if not math.isfinite(data):
            raise InvalidDocument(f"{path}: {data!r} is not a JSON number")
        return data
    if isinstance(data, list):
        for i, v in enumerate(data):
            _check_json(v, f"{path}[{i}]")
        return data
    if isinstance(data, dict):
        for k, v in data.items():
            if not isinstance(k, str):
                raise InvalidDocument(f"{path}: object keys must be strings, not {k!r}")
            _check_json(v, f"{path}.{k}")
        return data
    raise InvalidDocument(f"{path}: {type(data).__name__} is not a JSON value")


def _convert(tp: Any, data: Any, path: str) -> Any:
    if tp is Any:
        return data
    origin = get_origin(tp)
    if origin in (Union, types.UnionType) and _is_json_alias(tp):
        return _check_json(data, path)
    if origin in (Union, types.UnionType):
        errors = []
        for arg in get_args(tp):
            try:
                return _convert(arg, data, path)
            except InvalidDocument as exc:
                errors.append(str(exc))
        raise InvalidDocument(f"{path}: no alternative fits ({'; '.join(errors)})")
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise InvalidDocument(f"{path}: {data!r} is not one of {list(get_args(tp))}")
        return data
    if tp is type(None):
        if data is not None:
            raise InvalidDocument(f"{path}: expected null")
        return None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if not isinstance(data, dict):
            raise InvalidDocument(f"{path}: expected an object for {tp.__name__}")
        hints = _hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        unknown = set(data) - names
        if unknown:
            raise InvalidDocument(f"{path}: unknown keys {sorted(unknown)} for {tp.__name__}")
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name in data:
                kwargs[f.name] = _convert(hints[f.name], data[f.name], f"{path}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise InvalidDocument(f"{path}: missing key {f.name!r} for {tp.__name__}")
        return tp(**kwargs)
    if origin is tuple:
        if not isinstance(data, list):
            raise InvalidDocument(f"{path}: expected a list")
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, f"{path}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise InvalidDocument(f"{path}: expected {len(args)} items")
        return tuple(_convert(a, v, f"{path}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True)))
    if origin is list:
        if not isinstance(data, list):
            raise InvalidDocument(f"{path}: expected a list")
        (arg,) = get_args(tp)
        return [_convert(arg, v, f"{path}[{i}]") for i, v in enumerate(data)]
    if origin is dict:
        if not isinstance(data, dict):
            raise InvalidDocument(f"{path}: expected an object")
        _, vt = get_args(tp)
        return {str(k): _convert(vt, v, f"{path}.{k}") for k, v in data.items()}
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, (int, float)) or not math.isfinite(data):
            raise InvalidDocument(f"{path}: expected a number")
        # JSON writes 120.0 as 120 in some tools: keep the field a float, as the model types it.
        return float(data)
    if tp is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise InvalidDocument(f"{path}: expected an integer")
        return data
    if tp in (str, bool):
        if not isinstance(data, tp):
            raise InvalidDocument(f"{path}: expected {tp.__name__}")
        return data
    if isinstance(tp, typing.ForwardRef):
        # the inner, unexpanded reference of the recursive JSON alias
        return _check_json(data, path)
    raise TypeError(f"{path}: the model uses a type serial cannot read: {tp!r}")
