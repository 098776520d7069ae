"""Attempts: the student's turn at the table, the reason the student gave, a draw in the turn."""

from django.db import migrations, models


class Migration(migrations.Migration):
    # 0003_school_year (classrooms) was written at the same time: chained after it so the
    # migration graph keeps one leaf.
    dependencies = [
        ("lessons", "0003_school_year"),
    ]

    operations = [
        migrations.AddField(
            model_name="attempt",
            name="turn",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="turn"),
        ),
        migrations.AddField(
            model_name="attempt",
            name="reason",
            field=models.CharField(
                blank=True, max_length=16, null=True, verbose_name="reason given"
            ),
        ),
        migrations.AddField(
            model_name="attempt",
            name="drew",
            field=models.BooleanField(
                db_default=False, default=False, verbose_name="drew in this turn"
            ),
        ),
        migrations.AddIndex(
            model_name="attempt",
            index=models.Index(fields=["table", "student", "turn"], name="attempt_table_turn"),
        ),
    ]
