"""What bench/run.py, bench/crm.py and bench/sync.py share."""
import os

# The FLYR user the PostgreSQL benchmarks' rows belong to.
BENCH_USER = "11111111-2222-4333-8444-555555555555"


def verdict(ok):
    return "PASS" if ok else "FAIL"


def fresh_ledger(args, name):
    """The path of ledger `name` in the data folder, with any earlier one (and its WAL) removed."""
    ledger = os.path.join(args.data, f"ledger-{name}.db")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(ledger + suffix):
            os.remove(ledger + suffix)
    return ledger


def fresh_database(server, name):
    """A new database `name` on the test server with FLYR's tables and the bench user; its URL."""
    import psycopg2
    admin = psycopg2.connect(server)
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute(f"DROP DATABASE IF EXISTS {name}")
        cur.execute(f"CREATE DATABASE {name}")
    admin.close()
    url = server.rsplit("/", 1)[0] + "/" + name
    conn = psycopg2.connect(url)
    with conn.cursor() as cur:
        cur.execute(open("sql/flyr-schema.sql").read())
        cur.execute("INSERT INTO auth.users (id) VALUES (%s)", (BENCH_USER,))
    conn.commit()
    conn.close()
    return url


def checkpoint(server):
    """Writes out what earlier runs left in PostgreSQL's buffers, so it is not charged to the next."""
    import psycopg2
    admin = psycopg2.connect(server)
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute("CHECKPOINT")
    admin.close()


def summary_line(stderr):
    """The counts line of an import's summary (`100000 rows in 2.71 s: created …`): the summary
    ends with the run's id on a line of its own, so the last line is not it."""
    lines = stderr.strip().splitlines()
    counts = [line for line in lines if " rows in " in line or " row in " in line]
    return (counts or lines or [""])[-1]
