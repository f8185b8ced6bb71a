# Each entry gets a secret personal-link token: the column is added without the unique
# constraint, every existing entry draws its own token, then the constraint is added.

import secrets

from django.db import migrations, models

import tournaments.models.tournament


def fill_tokens(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    for entry in Entry.objects.only("pk"):
        entry.personal_token = secrets.token_urlsafe(16)
        entry.save(update_fields=["personal_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_join_window"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="personal_token",
            field=models.CharField(max_length=32, null=True, verbose_name="personal link token"),
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="entry",
            name="personal_token",
            field=models.CharField(
                default=tournaments.models.tournament.new_personal_token,
                max_length=32,
                unique=True,
                verbose_name="personal link token",
            ),
        ),
    ]
