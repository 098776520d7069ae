"""Add Table.refused: the cards refused to the turn seat at the table's current state."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_merge_last_moves_and_state_id"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="refused",
            field=models.JSONField(blank=True, null=True, verbose_name="cards refused this turn"),
        ),
    ]
