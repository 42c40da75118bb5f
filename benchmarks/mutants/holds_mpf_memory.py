"""Mutants of the code changed by ``bdec5de`` (kunin setups remember whether they hold an mpf):

* ``remember_holds_mpf`` and ``HOLDS_MPF`` (``solvable/_core/numbers.py``): a validated,
  frozen record stores ``any(v is not None and holds_mpf(v, depth=3) ...)`` of its fields in
  the instance attribute ``_holds_mpf``;
* the shortcut in ``holds_mpf``: a dataclass whose ``__dict__`` has that attribute returns
  it instead of scanning its fields (``dps_or_context`` / ``mpmath_in_mpmath_out`` read it:
  mpmath in, mpmath out);
* the call at the end of ``_check_data`` (``solvable/models/kunin/setups.py``, used by
  ``kunin.Setup``, ``WideSetup``, ``PiecewiseLinearSetup``): ``eta_a``, ``eta_w``, ``X``
  (``None`` when it came from a numeric numpy array, cached as ``_float64_X``) and the
  targets (``y`` or ``Y``).

Written by an outside reviewer (a helper session) who read the code but not the tests;
the test hints (``tests``) were filled in by file name, as the maintainer asked.  Each is one
replacement at one place, the kind of slip a tired developer makes (``any`` for ``all``,
``and`` for ``or``, ``is None`` for ``is not None``, a negation, a wrong depth, a
copy-pasted field, a field left out of the dict).  ``why`` is what the reviewer observed with
the mutant applied to a copy of ``b9cb8d4`` (the sources as at ``bdec5de``): small probes, no
test run, the unmutated copy first, where every probe below gave the expected answer.  The
probes (``mpf = mpmath.mpf``, X = ((1, 0), (0, 1), (0, 0)) as floats, y = (0.3, -0.2, 0.1)):

* ``nb.holds_mpf(setup)`` and ``kunin.closed_form(setup, 0.7, (0.2, 0.1)).at(1.0)`` (the
  types of ``a``, ``w``, ``loss``) for ``kunin.Setup`` with float tuples, a float64 and an
  int64 ``np.array(X)``, one mpf in ``eta_a``, ``eta_w``, ``X[0][0]``, ``X[2][1]``, ``y``,
  an ndarray X with an mpf ``eta_w`` or ``y``, every field mpf, an object array X holding an
  mpf, and ``dataclasses.replace`` both ways (float setup with ``eta_w=mpf('0.5')``, mpf
  setup with ``eta_w=0.5``); ``State.from_weights(setup, 1.0, 0.7, (0.2, 0.1))`` for five of
  them;
* ``kunin.WideSetup`` (Y (3, 2)) with floats, an ndarray X, one mpf in Y (with tuple and
  ndarray X), in X, in ``eta_w``: ``holds_mpf``, ``wide_start(setup, 0.1, A=I_2)`` and
  ``WideState.from_weights``; ``kunin.PiecewiseLinearSetup`` with floats, an mpf in y (tuple
  and ndarray X), in X: ``holds_mpf`` and ``PiecewiseLinearState.from_weights``;
* a dataclass without the memory: ``node_scaling.Setup(X, y, lam, "linear", 0.5)`` with
  ``lam = (1.0, 0.5)`` and ``(1.0, mpf('0.5'))``: ``holds_mpf`` and
  ``linear_node_scaling.closed_form(..., (1, -1), W0).at(1.0).W``; ``holds_mpf`` of a list
  holding a setup, ``dps_or_context(None, setup)``.

Probed equivalent and left out: ``holds_mpf(v, depth=2)`` in ``remember_holds_mpf`` (a
matrix's rows are read at depth 2, their entries at depth 1: every probe the same; depth 1
is kept, below); ``if known:`` for ``if known is not None:`` (a remembered ``False`` falls
through to the scan, which says ``False`` again: speed only); the memory stored under
another name than ``HOLDS_MPF``, or ``_F64_X`` / ``HOLDS_MPF`` mixed up in the lookups (never
found: the full scan, speed only); the memory looked up for every value, not only
dataclasses (nothing else carries the attribute); ``_F64_X in setup.__dict__`` for ``...get(
_F64_X) is not None`` (during ``__post_init__`` only ``_check_rows`` sets it, always to an
array; ``None`` is cached later by ``_float64_X``); the key ``targets`` written as the literal
``"y"`` (the dict's keys are never read, only its values: WideSetup's Y is still scanned,
not dropped); the ndarray shortcut of ``_check_rows`` taken for every integer array, entries
beyond 2^53 included (``_float64_X`` then rounds them as ``to_float`` does: the float64 state,
``s`` and the isotropy verdicts at dps None and 30 the same for X with 2^53 + 1 and a uint64
2^63 + 1; ints hold no mpf either way).  Overlapping and left out: ``v is None and`` and
``for v in fields`` (the dict's keys: strings) in ``remember_holds_mpf`` (every setup
remembered as holding no mpf, as ``any_as_all`` below but also for an all-mpf setup);
``getattr(value, HOLDS_MPF, False)`` (as ``unremembered_as_plain``).  Crash-only and
left out: the shortcut of ``_check_rows`` taken for object arrays (``"fiuO"``: numpy's
``isfinite`` raises a TypeError for any object-array X).  Format: see
``benchmarks/mutation.py``."""

_NUMBERS = "solvable/_core/numbers.py"
_SETUPS = "solvable/models/kunin/setups.py"
# the test hints (by file name; the reviewer did not open them)
_TESTS = ["tests/test_bad_input.py", "tests/test_mpmath_in_mpmath_out.py"]

MUTANTS = [
    # ------------------------------------------------------------ numbers.py
    dict(
        name="core.holds_mpf_memory_any_as_all",
        seed="003",
        backend="mpmath",
        file=_NUMBERS,
        old="    held = any(v is not None and holds_mpf(v, depth=3) for v in fields.values())",
        new="    held = all(v is not None and holds_mpf(v, depth=3) for v in fields.values())",
        why=(
            "a record remembers holding an mpf only when every field does.  Observed: "
            "holds_mpf False and closed_form(...).at(1.0) float64 (a, w, loss) for a Setup "
            "with one mpf in eta_a, eta_w, X (first or last entry) or y, with an ndarray X "
            "and an mpf eta_w or y (its X, passed as None, never counts), after replace(..., "
            "eta_w=mpf); State / WideState / PiecewiseLinearState.from_weights and "
            "wide_start float64 likewise; dps_or_context(None, setup) None instead of 15.  "
            "A setup with every field mpf (tuple X) and the float setups unchanged"
        ),
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.holds_mpf_memory_none_taken_as_mpf",
        seed="003",
        backend="mpmath",
        file=_NUMBERS,
        old="held = any(v is not None and holds_mpf",
        new="held = any(v is None or holds_mpf",
        why=(
            "a field passed as None ('known to hold no mpf') counted as holding one: every "
            "setup built from a numeric ndarray X (float64 or int64) is remembered as mpf.  "
            "Observed: closed_form(Setup(1.0, 0.5, np.array(X), y), ...).at(1.0), "
            "State.from_weights, wide_start and WideState.from_weights of a WideSetup with "
            "ndarray X return mpf at mp.dps instead of float64 (a float64 computation "
            "silently promoted); tuple-X setups and the mpf setups unchanged"
        ),
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.holds_mpf_memory_rows_depth_one",
        seed="003",
        backend="mpmath",
        file=_NUMBERS,
        old="holds_mpf(v, depth=3)",
        new="holds_mpf(v, depth=1)",
        why=(
            "the fields scanned one level deep: a matrix's rows are looked at but not their "
            "entries.  Observed: an mpf in X (first or last entry, tuples or an object "
            "array) of a Setup not seen (holds_mpf False, closed_form float64), nor in the "
            "X or Y of a WideSetup (wide_start, WideState.from_weights float64) or the X of "
            "a PiecewiseLinearSetup; an mpf eta_a, eta_w or y (flat) still seen"
        ),
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.holds_mpf_memory_answer_inverted",
        seed="003",
        backend="mpmath",
        file=_NUMBERS,
        old="            return bool(known)",
        new="            return not known",
        why=(
            "the remembered answer returned negated.  Observed: every kunin setup the other "
            "way round: float data (tuples or ndarray) runs at mpmath (closed_form, "
            "from_weights and wide_start return mpf), every setup with an mpf runs in "
            "float64; holds_mpf([float setup]) True; node_scaling setups (no memory) "
            "unchanged"
        ),
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="core.holds_mpf_memory_unremembered_as_plain",
        seed="003",
        backend="mpmath",
        file=_NUMBERS,
        old="        if known is not None:",
        new="        if known is None:",
        why=(
            "the memory test inverted: a dataclass that remembered nothing (every record "
            "but the kunin setups) answers bool(None) = False without scanning, and the "
            "kunin setups fall through to the scan.  Observed: holds_mpf(node_scaling."
            "Setup(X, y, (1.0, mpf('0.5')), 'linear', 0.5)) False and "
            "linear_node_scaling.closed_form(that setup, (1, -1), W0).at(1.0).W float64 "
            "instead of mpf; every kunin probe unchanged (the scan gives the same answer)"
        ),
        tests=_TESTS,
        claims=[],
    ),
    # ------------------------------------------------------------ kunin/setups.py
    dict(
        name="kunin.holds_mpf_memory_f64_test_inverted",
        seed="003",
        backend="mpmath",
        file=_SETUPS,
        old="X = None if setup.__dict__.get(_F64_X) is not None else setup.X",
        new="X = None if setup.__dict__.get(_F64_X) is None else setup.X",
        why=(
            "X skipped when it was NOT built from a numeric ndarray (tuples, lists, object "
            "arrays: the only X that can hold an mpf) and scanned when it was.  Observed: an "
            "mpf in X of a Setup (first or last entry, tuples or an object array), a "
            "WideSetup or a PiecewiseLinearSetup not seen: holds_mpf False, closed_form, "
            "wide_start and the from_weights float64; mpf etas and targets still seen; "
            "ndarray X setups unchanged (scanned: slower only)"
        ),
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="kunin.holds_mpf_memory_eta_w_copy_paste",
        seed="003",
        backend="mpmath",
        file=_SETUPS,
        old='"eta_w": setup.eta_w, "X": X,',
        new='"eta_w": setup.eta_a, "X": X,',
        why=(
            "eta_a remembered twice (copy-paste), eta_w never scanned.  Observed: "
            "Setup(1.0, mpf('0.5'), X, y) (tuple or ndarray X) and replace(float setup, "
            "eta_w=mpf('0.5')): holds_mpf False, closed_form and State.from_weights float64; "
            "a WideSetup with an mpf eta_w: wide_start and WideState.from_weights float64; "
            "an mpf eta_a, X or targets still seen"
        ),
        tests=_TESTS,
        claims=[],
    ),
    dict(
        name="kunin.holds_mpf_memory_targets_left_out",
        seed="003",
        backend="mpmath",
        file=_SETUPS,
        old='"X": X,\n                                  targets: y})',
        new='"X": X})',
        why=(
            "the targets left out of the remembered fields.  Observed: an mpf in y of a "
            "Setup (tuple or ndarray X) or a PiecewiseLinearSetup, or in Y of a WideSetup "
            "(tuple or ndarray X) not seen: holds_mpf False, closed_form, wide_start and "
            "the from_weights float64; mpf etas and X still seen"
        ),
        tests=_TESTS,
        claims=[],
    ),
]
