"""Add Table.memo: what a move needs, kept with the table row the move locks."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="memo",
            field=models.JSONField(blank=True, default=dict, verbose_name="kept facts"),
        ),
    ]
