"""Mutants of the scale-exact ``relative_change`` of ``numerics/measures.py`` (the
power-of-two rescaling by ``torch.frexp``, the refusal of non-finite entries and of an
all-zero ``old``, and the recorders ``record_ntk_change`` / ``record_relative_distance``
that refuse a zero or non-finite start when made) and of the usage checks of
``solvable/verification/cli.py`` (``--dps`` between 30 and ``MAX_DPS``; ``figures --out DIR`` that
cannot hold the figures, refused with exit 2 before any figure is computed).

Written by an outside reviewer (a helper session) who read the code and the docs but not the
tests; ``why`` is the wrong behaviour the reviewer observed with the mutant applied to a
copy of the repository (torch 2.13 CPU, float64; run as root, so a directory that is not
writable is ``/proc/sys``, where ``os.access(..., W_OK)`` is false even for root).  The test
hints were filled in by the maintainer.  When written, 7 of the 12 were killed by an
assertion; the other 5 (the scale of the whole batch, ``any`` for ``all`` in the NTK
recorder's finiteness check, both ``--dps`` bounds (a crash only: ``SystemExit`` and a
``ValueError`` instead of an assertion) and a read-only ``--out`` folder) are killed by the
tests written for them in ``tests/test_numerics_bad_input.py`` and ``tests/test_cli.py``.
Format: see ``benchmarks/mutation.py``."""

MUTANTS = [
    # ------------------------------------------------------------------ measures.py
    dict(
        name="measures_cli.frexp_scale_wrong_sign",
        seed="core",
        backend="torch",
        file="numerics/measures.py",
        old="torch.exp2((-e - half).to(new.dtype))",
        new="torch.exp2((e - half).to(new.dtype))",
        why=(
            "the second factor has the exponent's sign flipped, so f1 * f2 = 2^e (scales up "
            "instead of down): relative_change(tensor([[2e200, 2e200]]), tensor([[1e200, "
            "1e200]])) (float64) returns tensor([nan]) instead of tensor([1.]); likewise "
            "2e-200 vs 1e-200 gives nan instead of 1 (moderate inputs, 3,4 vs 1,2, still "
            "give the right 1.2649)."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="measures_cli.frexp_scale_one_factor",
        seed="core",
        backend="torch",
        file="numerics/measures.py",
        old="new, old = new * f1 * f2, old * f1 * f2",
        new="new, old = new * f1, old * f1",
        why=(
            "only half of 2^-e is applied (the two-factor split exists for subnormal tops): "
            "relative_change(tensor([[1e-323, 5e-324]]), tensor([[5e-324, 5e-324]])) "
            "(float64 subnormals) returns tensor([nan]) instead of tensor([0.7071]) (the "
            "half-scaled entries 2^-538 square to 0, giving 0/0); 1e200-scale inputs still "
            "pass."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="measures_cli.frexp_scale_whole_batch",
        seed="core",
        backend="torch",
        file="numerics/measures.py",
        old="both.amax(dim=dims, keepdim=True) if dims else both",
        new="both.amax() if dims else both",
        why=(
            "one scale for the whole batch instead of one per batch element: "
            "relative_change(tensor([[2e200], [2e-200]]), tensor([[1e200], [1e-200]])) "
            "returns tensor([1., nan]) instead of tensor([1., 1.]) (the small element is "
            "scaled by the large one's 2^-665 and underflows to 0)."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="measures_cli.nonzero_rows_any",
        seed="core",
        backend="torch",
        file="numerics/measures.py",
        old="zero = (value == 0).reshape(value.shape[0], -1).all(-1)",
        new="zero = (value == 0).reshape(value.shape[0], -1).any(-1)",
        why=(
            "an old with a single zero entry is refused as if it were all zero: "
            "relative_change(tensor([[1., 1.]]), tensor([[0., 1.]])) raises ValueError 'old "
            "is zero in batch element(s) [0]' instead of returning tensor([1.]) (and "
            "record_relative_distance refuses any p0 block with a zero entry)."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="measures_cli.nonzero_rows_checks_new",
        seed="core",
        backend="torch",
        file="numerics/measures.py",
        old='_nonzero_rows("old", old)',
        new='_nonzero_rows("new", new)',
        why=(
            "the zero check looks at new instead of old: relative_change(tensor([[1., 1.]]), "
            "tensor([[0., 0.]])) returns tensor([inf]) instead of ValueError 'old is zero "
            "...', and relative_change(tensor([[0., 0.]]), tensor([[1., 1.]])) (a well "
            "defined change of 1) raises ValueError 'new is zero in batch element(s) [0]' "
            "instead of returning tensor([1.])."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="measures_cli.finite_check_isinf",
        seed="core",
        backend="torch",
        file="numerics/measures.py",
        old="bad = ~torch.isfinite(value)",
        new="bad = torch.isinf(value)",
        why=(
            "NaN entries pass the finiteness check: relative_change(tensor([[nan, 1.]]), "
            "tensor([[1., 1.]])) returns tensor([nan]) instead of ValueError 'new must be "
            "finite, got a non-finite entry at index (0, 0)'; a NaN in old likewise returns "
            "nan instead of a ValueError naming old."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="measures_cli.ntk_change_finite_any",
        seed="core",
        backend="torch",
        file="numerics/measures.py",
        old="if not bool(torch.isfinite(K0).all()):",
        new="if not bool(torch.isfinite(K0).any()):",
        why=(
            "a start whose NTK overflows in one batch element is accepted: with "
            "models.SingleNeuron(X=[[1., 1.]], y=[1.]) and p0 = {'a': [1., 1e200], 'w': "
            "[[1., 0.], [1e200, 0.]]} (float64), record_ntk_change(m, p0) returns a recorder "
            "(which gives tensor([0., nan]) at p0) instead of ValueError 'p0 gives a "
            "non-finite NTK Gram matrix on X'."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    dict(
        name="measures_cli.relative_distance_recorder_swapped",
        seed="core",
        backend="torch",
        file="numerics/measures.py",
        old="return lambda p, rows: _relative_change(p[block], _rows_of(p0, rows)[block])",
        new="return lambda p, rows: _relative_change(_rows_of(p0, rows)[block], p[block])",
        why=(
            "the recorder divides by the current norm instead of the initial one: "
            "record_relative_distance('W', {'W': tensor([[1., 1.], [3., 4.]])}) evaluated at "
            "{'W': tensor([[2., 2.]])}, rows tensor([0]) returns tensor([0.5]) instead of "
            "seed 004's RD = ||W - W0|| / ||W0|| = tensor([1.]) (same at row 1 with [[6., "
            "8.]])."
        ),
        tests=["tests/test_numerics_bad_input.py"],
        claims="",
    ),
    # ------------------------------------------------------------------ cli.py
    dict(
        name="measures_cli.dps_max_exclusive",
        seed="core",
        backend="numpy",
        file="solvable/verification/cli.py",
        old="if value is None or not nb.VERIFY_MIN_DPS <= value <= nb.MAX_DPS:",
        new="if value is None or not nb.VERIFY_MIN_DPS <= value < nb.MAX_DPS:",
        why=(
            "off-by-one at the documented inclusive cap: cli._dps('100000') (= MAX_DPS, "
            "what every claim accepts) raises ArgumentTypeError '--dps must be an integer "
            ">= 30 ... and <= 100000, got '100000'' (so solvable verify --dps 100000 exits "
            "2) instead of returning 100000; '99999' is still accepted."
        ),
        tests=["tests/test_cli.py"],
        claims="",
    ),
    dict(
        name="measures_cli.dps_upper_bound_dropped",
        seed="core",
        backend="numpy",
        file="solvable/verification/cli.py",
        old="if value is None or not nb.VERIFY_MIN_DPS <= value <= nb.MAX_DPS:",
        new="if value is None or not nb.VERIFY_MIN_DPS <= value:",
        why=(
            "the cap is gone again: cli._dps('100001') returns 100001 and "
            "cli._dps('99999999999') returns 99999999999 instead of ArgumentTypeError; "
            "main(['verify', '--dps', '100001', '--only', 'no-such-claim']) gets past "
            "argparse (returns 2 for 'no claim matches') instead of SystemExit(2) with "
            "'argument --dps: ... <= 100000'."
        ),
        tests=["tests/test_cli.py"],
        claims="",
    ),
    dict(
        name="measures_cli.out_dir_read_access",
        seed="core",
        backend="numpy",
        file="solvable/verification/cli.py",
        old="if not os.access(target, os.W_OK | os.X_OK):",
        new="if not os.access(target, os.R_OK):",
        why=(
            "an existing directory is checked for reading, not writing: "
            "cli._out_dir_problem('/proc/sys') returns None instead of \"--out: the "
            "directory '/proc/sys' is not writable\", and main(['figures', '--out', "
            "'/proc/sys', '--only', 'no-such-fig']) gets past the usage check (returns 2 for "
            "the unknown id) instead of SystemExit(2) before any figure is computed."
        ),
        tests=["tests/test_cli.py"],
        claims="",
    ),
    dict(
        name="measures_cli.out_dir_parent_one_level",
        seed="core",
        backend="numpy",
        file="solvable/verification/cli.py",
        old="while not os.path.exists(parent):",
        new="if not os.path.exists(parent):",
        why=(
            "only one level is walked up to the nearest existing ancestor: with d a fresh "
            "temporary directory, cli._out_dir_problem(d + '/a/b/figs') returns \"--out: "
            "'.../a/b', a parent of '.../a/b/figs', is a file\" (a missing folder called a "
            "file) and main(['figures', '--out', d + '/a/b/figs', ...]) exits 2 instead of "
            "None / going on to make the folders (d + '/figs', one level, still passes)."
        ),
        tests=["tests/test_cli.py"],
        claims="",
    ),
]
