"""Mutants of the pytest oracle (``solvable/verification/testing.py``): the ways it could pass a
wrong
trainer (a block, a time or an exact zero not compared; what it cannot tell apart left
unsaid) or hide its message behind its own frames.  Killed by
``tests/test_oracle_properties.py``.  Format: see ``benchmarks/mutation.py``."""

_T = "solvable/verification/testing.py"
_TESTS = ["tests/test_oracle_properties.py", "tests/test_oracle.py"]

MUTANTS = [
    dict(
        name="oracle.only_last_block_compared",
        seed="core",
        backend="numpy",
        file=_T,
        old="        for b in self.blocks:  # every block, each against its own allowance",
        new="        for b in list(self.blocks)[-1:]:",
        why="only the last block is compared: a trainer whose first block is wrong passes",
        tests=_TESTS,
        claims="",
    ),
    dict(
        name="oracle.failure_threshold_loosened",
        seed="core",
        backend="numpy",
        file="solvable/verification/reports.py",
        old="            bad |= ~(err <= 1)  # a NaN error fails",
        new="            bad |= ~(err <= 1.5)  # a NaN error fails",
        why="a time fails only beyond 1.5 allowances: errors of 1-1.5 allowances pass",
        tests=_TESTS,
        claims="",
    ),
    dict(
        name="oracle.zero_allowance_admits_anything",
        seed="core",
        backend="numpy",
        file="solvable/verification/reports.py",
        old="    return np.where(~(allow > 0) & (diff != 0), np.inf, units)",
        new="    return units",
        why="an exact block identically 0 with atol = 0 admits any error (units 0, not inf)",
        tests=_TESTS,
        claims="",
    ),
    dict(
        name="oracle.converged_tail_unsaid",
        seed="core",
        backend="numpy",
        file="solvable/verification/oracle_notes.py",
        old="        if jump_passes and not rest_passes:",
        new="        if False:",
        why="times only in the converged tail pass silently (a jump to the limit passes too)",
        tests=_TESTS,
        claims="",
    ),
    dict(
        name="oracle.update_rule_unsaid",
        seed="core",
        backend="numpy",
        file="solvable/verification/oracle_notes.py",
        old="        if worst <= 1:",
        new="        if True:",
        why="a GD trajectory whose O(lr) error is not GD's (layers in sequence) passes silently",
        tests=_TESTS,
        claims="",
    ),
    dict(
        name="oracle.frames_shown",
        seed="core",
        backend="numpy",
        file=_T,
        old="""        __tracebackhide__ = True  # pytest: the user's line, not the oracle's frames
        return self._verdict(self.compare(""",
        new="""        return self._verdict(self.compare(""",
        why="check's frame in the user's pytest traceback, before the oracle's message",
        tests=_TESTS,
        claims="",
    ),
]
