"""The diagnosis's simulations, for the benchmarks and tests (pure, no Django; never on a page's
path: the import contract "diagnosis-simulation-apart" of pyproject.toml).

calibration (simulated students in real game situations), warmup_calibration (simulated pupils
in the warm-up, through probe_next's model), reference (the status model written plainly and
slowly, the specification model.py is held to) and learners (learner models of practice).
"""
