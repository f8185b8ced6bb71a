"""Battle columns named for the game's sides in turn order, not for one game's pieces.

The count columns no longer default to one game's starting numbers: a game that keeps
them (``Game.row_fields``) writes them when the battle starts.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_game_interface"),
        ("tournaments", "0008_tournament_game"),
    ]

    operations = [
        migrations.RenameField("battle", "dwarfs", "first_entry"),
        migrations.RenameField("battle", "trolls", "second_entry"),
        migrations.RenameField("battle", "dwarf_count", "first_count"),
        migrations.RenameField("battle", "troll_count", "second_count"),
        migrations.AlterField(
            model_name="battle",
            name="first_entry",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="tournaments.entry",
                verbose_name="first player",
            ),
        ),
        migrations.AlterField(
            model_name="battle",
            name="second_entry",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="tournaments.entry",
                verbose_name="second player",
            ),
        ),
        migrations.AlterField(
            model_name="battle",
            name="first_count",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name="battle",
            name="second_count",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
