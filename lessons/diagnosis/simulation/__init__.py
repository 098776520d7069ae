"""Simulated learners for the benchmarks (pure, no Django; never on a page's path)."""
