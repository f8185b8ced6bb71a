"""The "Organisers" group: its members may create tournaments (permissions.can_create_tournament).

Until now ``is_staff`` granted that; staff users who are not superusers are put in the
group here so nobody loses the ability at the upgrade. From now on ``is_staff`` alone
no longer lets anyone create a tournament: a superuser grants the role on
``/manage/organisers/``.
"""

from django.conf import settings
from django.db import migrations

# Frozen here on purpose: a migration must not follow later edits of the app's constant
# (tournaments.permissions.ORGANISERS_GROUP).
ORGANISERS_GROUP = "Organisers"


def create_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    group.user_set.add(*User.objects.filter(is_staff=True, is_superuser=False))


def delete_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=ORGANISERS_GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("tournaments", "0004_tournament_co_organisers"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(create_group, delete_group)]
