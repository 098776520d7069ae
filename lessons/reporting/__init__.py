"""Dashboards, progress reports and exports built from the attempt log."""
