"""The school's side: its admin pages, the retention period, purge, per-pupil export and erasure."""
