"""Add TableEvent.state_id: the state each stored action led to, for catch-up from the log.

Existing rows are numbered from their order: every commit stored one action, except a bot's
step after a penalised wrong attempt (the wrong attempt, then its move, both the bot's, in one
commit). A table whose count of commits found that way is not its `state_id` keeps None: its
catch-up sends the state without the old events rather than events under wrong numbers.
"""

from typing import Any

from django.db import migrations, models


def _commits(rows: list[Any]) -> list[int]:
    """Return the state number each row led to, counting a bot's wrong attempt with its move."""
    numbers, state = [], 0
    for index, row in enumerate(rows):
        following = rows[index + 1] if index + 1 < len(rows) else None
        wrong_then_move = (
            row.actor == "bot"
            and following is not None
            and following.actor == "bot"
            and following.seat == row.seat
            and bool(row.result)
            and row.result[0].get("type") == "wrong_attempt"
        )
        numbers.append(state + 1)
        if not wrong_then_move:
            state += 1
    return numbers


def number_rows(apps: Any, schema_editor: Any) -> None:
    """Fill the state number of every stored action whose table's count agrees."""
    table_model = apps.get_model("games", "Table")
    event_model = apps.get_model("games", "TableEvent")
    for table in table_model.objects.only("pk", "state_id").iterator():
        rows = list(event_model.objects.filter(table_id=table.pk).order_by("seq"))
        numbers = _commits(rows)
        if not rows or numbers[-1] != table.state_id:
            continue
        for row, number in zip(rows, numbers, strict=True):
            row.state_id = number
        event_model.objects.bulk_update(rows, ["state_id"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_table_memo"),
    ]

    operations = [
        migrations.AddField(
            model_name="tableevent",
            name="state_id",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="state number"),
        ),
        migrations.RunPython(number_rows, migrations.RunPython.noop),
    ]
