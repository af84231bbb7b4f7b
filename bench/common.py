"""What bench/run.py and bench/crm.py both use."""
import os


def verdict(ok):
    return "PASS" if ok else "FAIL"


def fresh_ledger(args, name):
    """The path of ledger `name` in the data folder, with any earlier one (and its WAL) removed."""
    ledger = os.path.join(args.data, f"ledger-{name}.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(ledger + suffix):
            os.remove(ledger + suffix)
    return ledger
