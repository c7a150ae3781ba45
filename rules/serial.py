"""Lossless JSON round trip for the model's frozen dataclasses.

``to_json(obj)`` turns a dataclass (and the tuples, dicts and unions inside it) into plain JSON
values; ``from_json(cls, data)`` builds it back, checking types as it goes. A malformed document
raises :class:`rules.errors.InvalidDocument` naming the path of the bad value.

``from_json`` first runs a reader compiled once per type (:func:`_reader`), which checks exactly what
:func:`_convert` checks but builds no path strings; only when it refuses a document does ``_convert`` run,
to name the bad value. (Reading a 200-ship state and its 600 log events was most of the battle page's time:
docs/performance.md.)
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable
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
    try:
        fast: T = _reader(typing.cast(Any, cls))(data)
    except _Mismatch:
        pass
    else:
        return fast
    result: T = _convert(cls, data, path)  # raises InvalidDocument (or TypeError) naming the path
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
        try:
            _read_float(data)  # (a float, or an int a float can hold)
        except _Mismatch:
            raise InvalidDocument(f"{path}: expected a number") from None
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


# --- the compiled readers (no paths: a refusal sends from_json to _convert) --------------------------------


class _Mismatch(Exception):
    """A compiled reader's refusal; :func:`_convert` then reads the document again and says why."""


_Reader = Callable[[Any], Any]


def _refuse(data: Any) -> Any:
    raise _Mismatch


def _identity(data: Any) -> Any:
    return data


def _is_json(data: Any) -> bool:
    """Return True if ``data`` is made only of JSON values (what :func:`_check_json` accepts)."""
    if data is None or isinstance(data, (bool, int, str)):
        return True
    if isinstance(data, float):
        return math.isfinite(data)
    if isinstance(data, list):
        return all(_is_json(v) for v in data)
    if isinstance(data, dict):
        return all(isinstance(k, str) and _is_json(v) for k, v in data.items())
    return False


def _read_json(data: Any) -> Any:
    if not _is_json(data):
        raise _Mismatch
    return data


def _read_float(data: Any) -> Any:
    if isinstance(data, bool) or not isinstance(data, (int, float)):
        raise _Mismatch
    try:
        value = float(data)  # (an int of 400 digits: OverflowError)
    except OverflowError:
        raise _Mismatch from None
    if not math.isfinite(value):
        raise _Mismatch
    return value


def _read_int(data: Any) -> Any:
    if isinstance(data, bool) or not isinstance(data, int):
        raise _Mismatch
    return data


def _read_none(data: Any) -> Any:
    if data is not None:
        raise _Mismatch
    return None


def _instance_reader(tp: type) -> _Reader:
    def read(data: Any) -> Any:
        if not isinstance(data, tp):
            raise _Mismatch
        return data

    return read


def _union_reader(args: tuple[Any, ...]) -> _Reader:
    readers = tuple(_reader(a) for a in args)

    def read(data: Any) -> Any:
        for reader in readers:
            try:
                return reader(data)
            except _Mismatch:
                continue
        raise _Mismatch

    return read


def _literal_reader(args: tuple[Any, ...]) -> _Reader:
    def read(data: Any) -> Any:
        if data not in args:
            raise _Mismatch
        return data

    return read


def _dataclass_reader(tp: type) -> _Reader:
    # The fields' readers are made on the first call, so that a dataclass may refer to itself.
    plan: list[tuple[frozenset[str], tuple[tuple[str, _Reader, bool], ...]]] = []

    def read(data: Any) -> Any:
        if not plan:
            hints = _hints(tp)
            fields = dataclasses.fields(tp)
            steps = tuple(
                (
                    f.name,
                    _reader(hints[f.name]),
                    f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING,
                )
                for f in fields
            )
            plan.append((frozenset(f.name for f in fields), steps))
        names, steps = plan[0]
        if not isinstance(data, dict) or not names.issuperset(data):
            raise _Mismatch
        kwargs = {}
        for name, reader, required in steps:
            if name in data:
                kwargs[name] = reader(data[name])
            elif required:
                raise _Mismatch
        try:
            return tp(**kwargs)
        except InvalidDocument:
            raise _Mismatch from None

    return read


def _tuple_reader(args: tuple[Any, ...]) -> _Reader:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _reader(args[0])

        def read_all(data: Any) -> Any:
            if not isinstance(data, list):
                raise _Mismatch
            return tuple([item(v) for v in data])

        return read_all
    readers = tuple(_reader(a) for a in args)

    def read_fixed(data: Any) -> Any:
        if not isinstance(data, list) or len(data) != len(readers):
            raise _Mismatch
        return tuple([r(v) for r, v in zip(readers, data, strict=True)])

    return read_fixed


def _list_reader(arg: Any) -> _Reader:
    item = _reader(arg)

    def read(data: Any) -> Any:
        if not isinstance(data, list):
            raise _Mismatch
        return [item(v) for v in data]

    return read


def _dict_reader(arg: Any) -> _Reader:
    value = _reader(arg)

    def read(data: Any) -> Any:
        if not isinstance(data, dict):
            raise _Mismatch
        return {str(k): value(v) for k, v in data.items()}

    return read


@cache
def _reader(tp: Any) -> _Reader:
    """Return the reader of type ``tp``: the checks of :func:`_convert`, in its order, without paths."""
    if tp is Any:
        return _identity
    origin = get_origin(tp)
    if origin in (Union, types.UnionType) and _is_json_alias(tp):
        return _read_json
    if origin in (Union, types.UnionType):
        return _union_reader(get_args(tp))
    if origin is typing.Literal:
        return _literal_reader(get_args(tp))
    if tp is type(None):
        return _read_none
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_reader(tp)
    if origin is tuple:
        return _tuple_reader(get_args(tp))
    if origin is list:
        (arg,) = get_args(tp)
        return _list_reader(arg)
    if origin is dict:
        _, vt = get_args(tp)
        return _dict_reader(vt)
    if tp is float:
        return _read_float
    if tp is int:
        return _read_int
    if tp in (str, bool):
        return _instance_reader(tp)
    if isinstance(tp, typing.ForwardRef):
        return _read_json
    return _refuse  # _convert raises the TypeError that names the type
