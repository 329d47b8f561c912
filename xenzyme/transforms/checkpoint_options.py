"""The checkpointing options of `enzyme`, `checkpoint-loops` and the Python API, checked.

Kept apart from the pass so that checking them costs no imports: `xz.gradient` checks its
options before it looks in the derivative cache, whose answer takes milliseconds.
"""

from __future__ import annotations

from xenzyme.diagnostics import XenzymeError

SCHEMES = ("off", "binomial", "periodic", "online")


def check_options(scheme: str, checkpoints: int | None, period: int, where: str,
                  budget_mb: float | None = None) -> None:  # fmt: skip
    """Reject an unknown scheme, a count that is not positive, a budget that is not a positive
    number, or a budget with the options it replaces (when the pipeline is read)."""
    if scheme not in SCHEMES:
        raise XenzymeError(f"{where}: unknown checkpointing scheme '{scheme}'",
                           notes=["the schemes are off, binomial, periodic and online; for example "
                                  "-p 'enzyme{checkpoint=binomial checkpoints=32}'"])  # fmt: skip
    for name, value in (("checkpoints", checkpoints), ("period", period)):
        if value is None and name == "checkpoints":
            continue
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise XenzymeError(f"{where}: {name} must be a positive integer (got {value!r})",
                               notes=[f"for example {name}=32"])  # fmt: skip
    if budget_mb is None:
        return
    if not isinstance(budget_mb, int | float) or isinstance(budget_mb, bool) or not 0 < budget_mb < float("inf"):
        raise XenzymeError(f"{where}: the tape budget must be a positive number of MiB (got {budget_mb!r})",
                           notes=["for example -p 'enzyme{tape-budget-mb=256}' or tape_budget_mb=256"])  # fmt: skip
    if scheme in ("periodic", "online"):
        option = "period=M" if scheme == "periodic" else "checkpoints=N"
        raise XenzymeError(f"{where}: a tape budget chooses binomial checkpointing, not checkpoint={scheme}",
                           notes=[f"give either the budget or checkpoint={scheme} {option}"])  # fmt: skip
    if checkpoints is not None:
        raise XenzymeError(f"{where}: a tape budget chooses the number of checkpoints: it cannot be given too "
                           f"(checkpoints={checkpoints})",
                           notes=["give either the budget (in MiB) or checkpoints=N"])  # fmt: skip
