# Offers expire: expires_at (back-filled from created_at and the timing), status "expired".

import django.utils.timezone
from datetime import timedelta

from django.db import migrations, models

# The lifetimes of play.models.OFFER_LIFETIME when this migration was written.
LIFETIME = {"quickfire": timedelta(minutes=15), "correspondence": timedelta(days=7)}


def backfill(apps, schema_editor):
    Challenge = apps.get_model("play", "Challenge")
    for timing, lifetime in LIFETIME.items():
        Challenge.objects.filter(timing=timing).update(
            expires_at=models.F("created_at") + lifetime
        )


class Migration(migrations.Migration):

    dependencies = [
        ("play", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="challenge",
            name="expires_at",
            field=models.DateTimeField(null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="challenge",
            name="expires_at",
            field=models.DateTimeField(),
        ),
        migrations.AlterField(
            model_name="challenge",
            name="created_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AlterField(
            model_name="challenge",
            name="status",
            field=models.CharField(
                choices=[
                    ("open", "Open"),
                    ("accepted", "Accepted"),
                    ("declined", "Declined"),
                    ("cancelled", "Cancelled"),
                    ("expired", "Expired"),
                ],
                default="open",
                max_length=12,
                verbose_name="status",
            ),
        ),
        migrations.AddIndex(
            model_name="challenge",
            index=models.Index(
                condition=models.Q(("status", "open")),
                fields=["-created_at", "-id"],
                name="challenge_open_newest",
            ),
        ),
    ]
