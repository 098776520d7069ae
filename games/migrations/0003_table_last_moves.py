"""Replace Table.memo by Table.last_moves: games keeps its own per-seat fact in a named column.

The attempt log's facts move to lessons' own row (lessons.SeatStudent), filled again on a
seat's next judged play; each seat's last stored action is carried over.
"""

from typing import Any

from django.db import migrations, models


def carry_last_moves(apps: Any, schema_editor: Any) -> None:
    Table = apps.get_model("games", "Table")
    for table in Table.objects.exclude(memo={}).only("pk", "memo").iterator():
        kept = table.memo.get("seat_seq") if isinstance(table.memo, dict) else None
        if isinstance(kept, dict):
            Table.objects.filter(pk=table.pk).update(last_moves=kept)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_table_memo"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="last_moves",
            field=models.JSONField(
                blank=True, null=True, verbose_name="each seat's last action"
            ),
        ),
        migrations.RunPython(carry_last_moves, migrations.RunPython.noop),
        migrations.RemoveField(model_name="table", name="memo"),
    ]
