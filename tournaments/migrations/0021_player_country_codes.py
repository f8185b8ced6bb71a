"""Players' countries from free text to ISO 3166-1 alpha-2 codes (issue 42).

Each stored text is read by ``tournaments.models.countries.country_code`` (a code, or a name
in English, Italian or Norwegian, or an alias such as UK or England → GB). A text that names
no country is not lost: it moves to ``country_as_typed`` (shown in the admin), the country is
left empty, and the migration prints each such player. 0022 then narrows the column.
"""

from django.db import migrations, models

from tournaments.models.countries import code_or_kept


def to_codes(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    changed, kept = [], []
    for player in Player.objects.exclude(country="").only("pk", "name", "country"):
        code, as_typed = code_or_kept(player.country)
        if as_typed:
            kept.append(player)
        elif code == player.country:
            continue
        player.country, player.country_as_typed = code, as_typed
        changed.append(player)
    Player.objects.bulk_update(changed, ["country", "country_as_typed"], batch_size=1000)
    for player in kept:
        print(
            f"\n  player {player.pk} ({player.name}): country {player.country_as_typed!r} "
            "names no country; kept in country_as_typed, country left empty",
            end="",
        )


def to_text(apps, schema_editor):
    """Back: the codes stay (valid text), the texts kept come back."""
    Player = apps.get_model("tournaments", "Player")
    for player in Player.objects.exclude(country_as_typed=""):
        player.country = player.country_as_typed
        player.save(update_fields=["country"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0020_tournament_copy_of"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="country_as_typed",
            field=models.CharField(
                blank=True,
                editable=False,
                max_length=64,
                verbose_name="country as typed before codes",
            ),
        ),
        migrations.RunPython(to_codes, to_text),
    ]
