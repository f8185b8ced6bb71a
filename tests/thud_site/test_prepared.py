"""thud_site/prepared.py: a queryset compiled once, run again with other values, gives
what the queryset itself gives with those values."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.db.models import Exists, OuterRef

from thud_site.prepared import Prepared

pytestmark = pytest.mark.django_db

PK, NAME = -900_001, "stand-in:900002"


def _permissions(pk, group_name):
    """A join (select_related), a filter and an annotation that each take a value."""
    in_group = Group.objects.filter(permissions=OuterRef("pk"), name=group_name)
    return (
        Permission.objects.select_related("content_type")
        .only("name", "codename", "content_type__app_label")
        .annotate(in_group=Exists(in_group))
        .filter(pk=pk)
    )


def _as_read(permission):
    """Everything the instance holds: its fields, what is deferred, its related object
    (already there, or this raises: the test runs it under a pin of no queries), its
    annotation."""
    return (
        permission.pk,
        permission.name,
        permission.codename,
        sorted(permission.get_deferred_fields()),
        permission.content_type.app_label,
        sorted(permission.content_type.get_deferred_fields()),
        permission.in_group,
    )


def test_each_call_gives_what_the_queryset_gives_with_its_values(django_assert_num_queries):
    group = Group.objects.create(name="referees")
    first, second = Permission.objects.order_by("pk")[:2]
    group.permissions.add(second)
    prepared = Prepared(_permissions, PK, NAME)
    for permission, name in [(first, "referees"), (second, "referees"), (second, "other")]:
        with django_assert_num_queries(1):
            got = prepared.get(permission.pk, name)
        expected = _permissions(permission.pk, name).get()
        with django_assert_num_queries(0):
            assert _as_read(got) == _as_read(expected)
    assert [prepared.get(p.pk, "referees").in_group for p in (first, second)] == [False, True]
    assert prepared.get(second.pk, "referees").content_type_id == second.content_type_id


def test_an_unknown_value_is_the_models_does_not_exist():
    prepared = Prepared(_permissions, PK, NAME)
    with pytest.raises(Permission.DoesNotExist):
        prepared.get(0, "referees")
    assert prepared.all(0, "referees") == []


def test_all_gives_every_row_in_the_querysets_order():
    content_type = Permission.objects.order_by("pk").first().content_type
    prepared = Prepared(
        lambda ct: Permission.objects.filter(content_type_id=ct).order_by("-codename"), PK
    )
    expected = list(Permission.objects.filter(content_type=content_type).order_by("-codename"))
    assert len(expected) > 1
    assert prepared.all(content_type.pk) == expected
    with pytest.raises(Permission.MultipleObjectsReturned):
        prepared.get(content_type.pk)


def test_a_stand_in_the_query_does_not_take_is_refused_at_its_first_use():
    prepared = Prepared(lambda pk, unused: Permission.objects.filter(pk=pk), PK, NAME)
    with pytest.raises(ValueError, match="stand-in:900002"):
        prepared.get(1, "x")


def test_the_values_are_as_many_as_the_stand_ins():
    prepared = Prepared(_permissions, PK, NAME)
    with pytest.raises(TypeError, match="2 values expected, 1 given"):
        prepared.get(1)
