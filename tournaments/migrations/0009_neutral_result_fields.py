# The four result numbers get game-neutral names (issue 14): battle1_dwarfs -> battle1_first,
# battle1_trolls -> battle1_second, and so on; the data stays where it is (RENAME COLUMN).
#
# The check of their ranges is rebuilt from the games' scales: Thud's rows keep exactly
# their limits (32 first side, 8 second side); Cavalli's rows are now held to its own
# limit (4950, the most points a side can score) instead of the generic 9999; any other
# game keeps the generic 9999. The capture policy's choices now come from the game that
# has the option (same values and labels).

import django.core.validators
import django.db.models.deletion
import tournaments.models.wording
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0008_tournament_game'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='resultversion',
            name='survivors_in_range',
        ),
        migrations.RenameField(
            model_name='resultversion',
            old_name='battle1_dwarfs',
            new_name='battle1_first',
        ),
        migrations.RenameField(
            model_name='resultversion',
            old_name='battle1_trolls',
            new_name='battle1_second',
        ),
        migrations.RenameField(
            model_name='resultversion',
            old_name='battle2_dwarfs',
            new_name='battle2_first',
        ),
        migrations.RenameField(
            model_name='resultversion',
            old_name='battle2_trolls',
            new_name='battle2_second',
        ),
        migrations.AlterField(
            model_name='resultversion',
            name='battle1_first',
            field=models.PositiveSmallIntegerField(validators=[django.core.validators.MaxValueValidator(9999)], verbose_name='battle 1, first side'),
        ),
        migrations.AlterField(
            model_name='resultversion',
            name='battle1_second',
            field=models.PositiveSmallIntegerField(validators=[django.core.validators.MaxValueValidator(9999)], verbose_name='battle 1, second side'),
        ),
        migrations.AlterField(
            model_name='resultversion',
            name='battle2_first',
            field=models.PositiveSmallIntegerField(validators=[django.core.validators.MaxValueValidator(9999)], verbose_name='battle 2, first side'),
        ),
        migrations.AlterField(
            model_name='resultversion',
            name='battle2_second',
            field=models.PositiveSmallIntegerField(validators=[django.core.validators.MaxValueValidator(9999)], verbose_name='battle 2, second side'),
        ),
        migrations.AlterField(
            model_name='match',
            name='player_a',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='matches_as_a', to='tournaments.entry', verbose_name='player A (first side in battle 1)'),
        ),
        migrations.AlterField(
            model_name='match',
            name='player_b',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='matches_as_b', to='tournaments.entry', verbose_name='player B (second side in battle 1)'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='capture_policy',
            field=models.CharField(choices=tournaments.models.wording.capture_policy_choices, default='subset', max_length=16, verbose_name='capture policy'),
        ),
        migrations.AddConstraint(
            model_name='resultversion',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('battle1_first__lte', 4950), ('battle1_second__lte', 4950), ('battle2_first__lte', 4950), ('battle2_second__lte', 4950), ('game', 'cavalli')), models.Q(('battle1_first__lte', 32), ('battle1_second__lte', 8), ('battle2_first__lte', 32), ('battle2_second__lte', 8), ('game', 'thud')), models.Q(models.Q(('game__in', ['cavalli', 'thud']), _negated=True), ('battle1_first__lte', 9999), ('battle1_second__lte', 9999), ('battle2_first__lte', 9999), ('battle2_second__lte', 9999)), _connector='OR'), name='survivors_in_range'),
        ),
    ]
