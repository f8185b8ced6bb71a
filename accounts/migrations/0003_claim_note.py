
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_userprofile_email_notifications'),
        ('tournaments', '0009_neutral_result_fields'),
    ]

    operations = [
        migrations.CreateModel(
            name='ClaimNote',
            fields=[
                ('claim', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='note', serialize=False, to='tournaments.playerclaim', verbose_name='claim')),
                ('text', models.CharField(max_length=500, verbose_name='message')),
            ],
            options={
                'verbose_name': 'claim message',
                'verbose_name_plural': 'claim messages',
            },
        ),
    ]
