"""A query compiled once per process and run again with other values (issue 44).

Django compiles a queryset to SQL each time it is evaluated. For a wide ``select_related``
join that is read on every request, compiling the SQL and planning how its columns become
models cost more than running it: measured for a referee's press, the battle gate's join
took 1.9 ms of Python through the ORM and 0.2 ms prepared. :class:`Prepared` builds the
queryset once per database connection, with stand-in values for its parameters, keeps its
SQL and Django's plan for the rows (the columns of each model, the related objects
``select_related`` fills, the annotations), and runs that SQL again with the real values.
It builds the same model instances the queryset would, as Django's ``ModelIterable`` does.

Only for querysets whose SQL does not depend on the values, such as a filter on an id: not
on whether a value is None, or on a list's length. The stand-ins must be values the query
holds nowhere else (say ``-900001``: a constant equal to one would take the call's value
too), and each must reach its SQL as a parameter, which the first use checks: a queryset
that drops one is refused.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

M = TypeVar("M", bound=Model)

#: Stand-ins no row holds: ids for an integer key (a query may take several), and one
#: text for a text key (a slug, a session key).
ID_STAND_INS = (-900_001, -900_002)
TEXT_STAND_IN = "stand-in:900001"


@dataclass(frozen=True)
class _Plan:
    """One connection's compiled query: its SQL, where each value goes in its parameters,
    and how a row becomes the model with its related objects and annotations."""

    sql: str
    params: tuple
    slots: tuple[int | None, ...]  # per parameter: the index of the value it takes, or None
    model: Any  # the model class (its own DoesNotExist)
    start: int
    end: int
    attnames: list[str]
    populators: list
    annotations: dict[str, int]
    converters: list

    def bind(self, values: tuple) -> list:
        bound = []
        for param, slot in zip(self.params, self.slots, strict=True):
            if slot is None:
                bound.append(param)
            else:
                bound.append(_like(param, values[slot]))
        return bound

    def build(self, row: list, connection: BaseDatabaseWrapper) -> Any:
        """The model of ``row``, with its related objects and annotations."""
        for position, (functions, expression) in self.converters:
            for function in functions:
                row[position] = function(row[position], expression, connection)
        obj = self.model.from_db(connection.alias, self.attnames, row[self.start : self.end])
        for populator in self.populators:
            populator.populate(row, obj)
        for name, position in self.annotations.items():
            setattr(obj, name, row[position])
        return obj


class Prepared(Generic[M]):
    """The queryset ``build(*stand_ins)``, run with other values in place of the
    stand-ins: ``get(*values)`` for its one model, ``all(*values)`` for its models."""

    def __init__(
        self, build: Callable[..., QuerySet[M]], *stand_ins: Any, using: str = DEFAULT_DB_ALIAS
    ) -> None:
        self._queryset = build
        self.stand_ins = stand_ins
        self.using = using
        self._plans: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _Plan] = (
            weakref.WeakKeyDictionary()
        )

    def get(self, *values: Any) -> M:
        """The one model, or its ``DoesNotExist`` (``MultipleObjectsReturned``)."""
        found = self._run(values, limit=2)
        if len(found) != 1:
            model = self._plan(connections[self.using]).model
            if not found:
                raise model.DoesNotExist(f"No {model.__name__} for {values!r}")
            raise model.MultipleObjectsReturned(f"{values!r} matches more than one row")
        return found[0]

    def all(self, *values: Any) -> list[M]:
        """Every model the query gives, in its order."""
        return self._run(values)

    def _run(self, values: tuple, limit: int | None = None) -> list[M]:
        if len(values) != len(self.stand_ins):
            raise TypeError(f"{len(self.stand_ins)} values expected, {len(values)} given")
        connection = connections[self.using]
        plan = self._plan(connection)
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, plan.bind(values))
            rows = cursor.fetchall() if limit is None else cursor.fetchmany(limit)
        return [plan.build(list(row), connection) for row in rows]

    def _plan(self, connection: BaseDatabaseWrapper) -> _Plan:
        plan = self._plans.get(connection)
        if plan is None:
            plan = self._plans[connection] = self._compile(connection)
        return plan

    def _compile(self, connection: BaseDatabaseWrapper) -> _Plan:
        queryset = self._queryset(*self.stand_ins).using(connection.alias)
        compiler = queryset.query.get_compiler(connection=connection)
        sql, params = compiler.as_sql()
        slots = tuple(
            next((i for i, stand_in in enumerate(self.stand_ins) if p == stand_in), None)
            for p in params
        )
        missing = set(range(len(self.stand_ins))) - set(slots)
        if missing:
            names = ", ".join(repr(self.stand_ins[i]) for i in sorted(missing))
            raise ValueError(f"The stand-ins {names} are not parameters of the query")
        info = compiler.klass_info
        start, end = info["select_fields"][0], info["select_fields"][-1] + 1
        selected = [column for column, _sql, _alias in compiler.select]
        return _Plan(
            sql=sql,
            params=tuple(params),
            slots=slots,
            model=info["model"],
            start=start,
            end=end,
            attnames=[column.target.attname for column in selected[start:end]],
            # django-stubs 6 describe Django 6's signature, which added fetch_mode.
            populators=get_related_populators(info, compiler.select, connection.alias),  # type: ignore[call-arg]
            annotations=dict(compiler.annotation_col_map),
            converters=list(compiler.get_converters(selected[: compiler.col_count]).items()),
        )


def _like(param: Any, value: Any) -> Any:
    """``value`` in the compiled parameter's wrapper when Django wrapped an integer
    (psycopg's ``Int4``, say); any other value as it is (None stays NULL, never "None")."""
    wrapped = isinstance(param, int) and type(param) is not int and type(value) is int
    return type(param)(value) if wrapped else value
