"""Mutants of seed 004's fast paths (issue 17): the hand-written gradient of
``numerics.models.ThreeLayerReLU`` and the batched training of
``numerics.sweep_three_layer.train_runs`` (per-network alpha and learning rate, grouping,
runs leaving the batch), and the shared runs of the confirmations.  Format: see
``benchmarks/mutation.py``."""

_SWEEP_TESTS = ["tests/test_sweep_three_layer.py"]
_PD_TESTS = ["tests/test_phase_diagram.py"]

MUTANTS = [
    dict(
        name="three_layer.gradient_mask_of_the_wrong_layer",
        seed="004",
        backend="torch",
        file="numerics/models.py",
        old="        g2 = e[:, :, None] * a * drelu(h2)",
        new="        g2 = e[:, :, None] * a * drelu(h1)",
        why="the hand-written gradient masks the second layer with the first layer's ReLU "
        "pattern (same shape, so nothing crashes)",
        tests=_SWEEP_TESTS,
        claims="three_layer.paper_regimes",
    ),
    dict(
        name="three_layer.gradient_without_alpha",
        seed="004",
        backend="torch",
        file="numerics/models.py",
        old="        e = (f - y) / (X.shape[0] * alpha)  # (B, n)",
        new="        e = (f - y) / X.shape[0]  # (B, n)",
        why="the hand-written gradient drops the 1/alpha of the output (exact at alpha = 1, "
        "the s = 0 points)",
        tests=_SWEEP_TESTS,
        claims="three_layer.table_2_invariance",
    ),
    dict(
        name="three_layer.batch_takes_the_first_learning_rate",
        seed="004",
        backend="torch",
        file="numerics/sweep_three_layer.py",
        old='        new, loss = _chunk(model, p, [r["lr"] for r in active], chunk, dev)',
        new='        new, loss = _chunk(model, p, [active[0]["lr"]] * len(active), chunk, dev)',
        why="every network of a batch trains at the first run's learning rate instead of its own",
        tests=_SWEEP_TESTS,
        claims="three_layer.paper_regimes",
    ),
    dict(
        name="three_layer.batch_takes_the_first_alpha",
        seed="004",
        backend="torch",
        file="numerics/sweep_three_layer.py",
        old='        p["alpha"] = torch.tensor([r["scales"]["alpha"] for r in active], '
        'dtype=p["a"].dtype,',
        new='        p["alpha"] = torch.tensor([active[0]["scales"]["alpha"]] * len(active), '
        'dtype=p["a"].dtype,',
        why="every network of a batch gets the first run's output scale alpha (Table 2's "
        "rows differ only in it)",
        tests=_SWEEP_TESTS,
        claims="three_layer.table_2_invariance",
    ),
    dict(
        name="three_layer.batch_ignores_the_tolerance",
        seed="004",
        backend="torch",
        file="numerics/sweep_three_layer.py",
        old='_SHARED = ("x", "y", "bias", "tol", "check_every", "max_steps", "dtype", "device")',
        new='_SHARED = ("x", "y", "bias", "check_every", "max_steps", "dtype", "device")',
        why="runs with different stopping tolerances share a batch, which stops them all at "
        "the first run's tol",
        tests=_SWEEP_TESTS,
        claims="three_layer.paper_regimes",
    ),
    dict(
        name="three_layer.finished_run_trains_one_more_chunk",
        seed="004",
        backend="torch",
        file="numerics/sweep_three_layer.py",
        old='            elif r["loss"] > s["tol"] and steps < s["max_steps"]:',
        new='            elif r["loss"] > s["tol"] / 10 and steps < s["max_steps"]:',
        why="a run stays in the batch past the check where its risk fell below tol (the "
        "stopping rule of the single run is not kept)",
        tests=_SWEEP_TESTS,
        claims="three_layer.paper_regimes",
    ),
    dict(
        name="three_layer.condensation_reads_the_wrong_seed",
        seed="004",
        backend="numpy",
        file="solvable/verification/confirmations/three_layer.py",
        old="        z = runs[m, seed][key]",
        new="        z = runs[m, seeds[0]][key]",
        why="the condensation claim reads the first seed's zetas for every seed of the shared runs",
        tests=_PD_TESTS,
        claims="three_layer.condensation_w2",
    ),
]
