"""`make bench`: times `leadport cat --format count` on the generated lead lists,
`leadport --version`, and `leadport import` of a 100k-row messy list through every rule into the
embedded SQLite against the Python yardstick (bench/baseline_import.py: csv, phonenumbers,
usaddress, sqlite3) timed in the same run. Prints wall time, throughput and peak RSS against the
targets. Each figure is the best of N runs (peak RSS is the largest seen)."""
import argparse, os, platform, resource, subprocess, sys, time

TARGETS = [
    # name, file, rows, max seconds, max peak RSS MiB
    ("CSV 1M x 15", "leads-1m.csv", 1_000_000, 0.45, 16),
    ("XLSX 200k x 15", "leads-200k.xlsx", 200_000, 1.10, 64),
]


def run_once(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {proc.stderr.decode()}")
    return wall, proc.stdout.decode().strip()


# Forks and execs the command from a fresh, small interpreter and prints the child's peak RSS.
# Linux counts the memory a child had before exec (its copy of the parent) in ru_maxrss, so a
# fork straight from this process would report this process's size whenever it is the larger,
# as it is after generating the benchmark data.
_RSS_HELPER = """
import os, sys
pid = os.fork()
if pid == 0:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(usage.ru_maxrss)
"""


def peak_rss_kib(cmd):
    """Peak RSS in KiB of one run of `cmd`, through _RSS_HELPER."""
    out = subprocess.run([sys.executable, "-S", "-c", _RSS_HELPER] + cmd, stdout=subprocess.PIPE, check=True)
    return int(out.stdout.decode().strip())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=".build/release/leadport")
    ap.add_argument("--data", default="bench/data")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", choices=["destinations"], help="run only these benchmarks")
    args = ap.parse_args()
    print(f"generating data in {args.data} (first run only)...", flush=True)
    subprocess.run([sys.executable, "bench/generate.py", args.data], check=True)
    binary = os.path.abspath(args.binary)
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}")
    print(f"{'benchmark':<18} {'best s':>8} {'target':>8} {'rows/s':>12} {'MB/s':>8} {'peak RSS':>10} {'target':>8}  result")
    if args.only == "destinations":
        if not os.path.exists(os.path.join(args.data, "messy-100k.csv")):
            subprocess.run([sys.executable, "bench/messy.py", os.path.join(args.data, "messy-100k.csv"), str(IMPORT_ROWS)], check=True)
        failures = destination_benchmark(binary, args)
        print(f"{failures} target(s) missed")
        return
    failures = 0
    for name, file, rows, max_s, max_mib in TARGETS:
        path = os.path.join(args.data, file)
        cmd = [binary, "cat", path, "--format", "count"]
        run_once(cmd)  # warm the page cache
        walls = []
        out = ""
        for _ in range(args.runs):
            wall, out = run_once(cmd)
            walls.append(wall)
        rss = max(peak_rss_kib(cmd) for _ in range(2)) / 1024
        best = min(walls)
        size_mb = os.path.getsize(path) / 1e6
        ok = best <= max_s and rss <= max_mib
        failures += not ok
        print(f"{name:<18} {best:8.3f} {max_s:8.2f} {rows / best:12,.0f} {size_mb / best:8.1f} {rss:8.1f}Mi {max_mib:6d}Mi  {'ok' if ok else 'MISSED'}  ({out})")
    failures += import_benchmark(binary, args)
    failures += destination_benchmark(binary, args)
    walls = [run_once([binary, "--version"])[0] for _ in range(20)]
    best = min(walls)
    ok = best <= 0.010
    failures += not ok
    print(f"{'--version':<18} {best * 1000:7.1f}ms {10:6d}ms {'':>12} {'':>8} {'':>10} {'':>8}  {'ok' if ok else 'MISSED'}")
    print(f"best of {args.runs} runs each; {failures} target(s) missed")


IMPORT_ROWS = 100_000
IMPORT_MIN_ROWS_PER_S = 50_000
IMPORT_MIN_SPEEDUP = 10


def import_benchmark(binary, args):
    """The messy list through every rule into a fresh embedded database, against Python."""
    path = os.path.join(args.data, "messy-100k.csv")
    if not os.path.exists(path):
        subprocess.run([sys.executable, "bench/messy.py", path, str(IMPORT_ROWS)], check=True)
    db = os.path.join(args.data, "import-bench.db")

    def fresh():
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.remove(db + suffix)

    cmd = [binary, "import", path, "--campaign", "Spring farm", "--to", "sqlite:" + db, "--progress", "none"]
    walls, rss = [], 0
    for _ in range(args.runs):
        fresh()
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        walls.append(time.perf_counter() - start)
        if proc.returncode not in (0, 3):
            sys.exit(f"leadport import failed: {proc.stderr.decode()}")
        summary = proc.stderr.decode().strip().splitlines()[-1]
    fresh()
    rss = peak_rss_kib(cmd) / 1024
    py_db = os.path.join(args.data, "import-bench-python.db")
    py_walls = []
    for _ in range(max(1, min(args.runs, 2))):
        start = time.perf_counter()
        py = subprocess.run([sys.executable, "bench/baseline_import.py", path, py_db], stdout=subprocess.PIPE, check=True)
        py_walls.append(time.perf_counter() - start)
    best, py_best = min(walls), min(py_walls)
    rate, speedup = IMPORT_ROWS / best, py_best / best
    ok = rate >= IMPORT_MIN_ROWS_PER_S and speedup >= IMPORT_MIN_SPEEDUP
    print(f"{'import 100k messy':<18} {best:8.3f} {IMPORT_ROWS / IMPORT_MIN_ROWS_PER_S:8.2f} {rate:12,.0f} {'':>8} {rss:8.1f}Mi {'':>8}  "
          f"{'ok' if ok else 'MISSED'}  ({summary})")
    print(f"{'  python baseline':<18} {py_best:8.3f} {'':>8} {IMPORT_ROWS / py_best:12,.0f}   -> leadport is {speedup:.1f}x faster "
          f"(target {IMPORT_MIN_SPEEDUP}x; python: {py.stdout.decode().strip()})")
    return 0 if ok else 1


DEST_TARGETS = {"postgres": 30_000, "supabase REST": 10_000}
BENCH_USER = "11111111-2222-4333-8444-555555555555"


def destination_benchmark(binary, args):
    """The messy list into FLYR's tables in the local PostgreSQL (libpq) and through the PostgREST
    double over it, each into a fresh database; then the same file again, which must send
    nothing and take under a tenth of the first run's time."""
    server = os.environ.get("LEADPORT_TEST_POSTGRES")
    if not server:
        print("destinations: skipped (no PostgreSQL: run through `make bench`, which starts one)")
        return 1
    import psycopg2
    path = os.path.join(args.data, "messy-100k.csv")
    schema = open("sql/flyr-schema.sql").read()
    failures = 0
    for name, minimum in DEST_TARGETS.items():
        firsts, reruns, summaries = [], [], []
        for attempt in range(max(1, min(args.runs, 3))):
            db = f"bench_{name.split()[0]}_{attempt}"
            admin = psycopg2.connect(server)
            admin.autocommit = True
            with admin.cursor() as cur:
                cur.execute(f"DROP DATABASE IF EXISTS {db}")
                cur.execute(f"CREATE DATABASE {db}")
            admin.close()
            url = server.rsplit("/", 1)[0] + "/" + db
            conn = psycopg2.connect(url)
            with conn.cursor() as cur:
                cur.execute(schema)
                cur.execute("INSERT INTO auth.users (id) VALUES (%s)", (BENCH_USER,))
            conn.commit()
            ledger = os.path.join(args.data, f"ledger-{db}.db")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(ledger + suffix):
                    os.remove(ledger + suffix)
            env = dict(os.environ)
            double = None
            if name == "postgres":
                target = url
            else:
                double = subprocess.Popen([sys.executable, "fixtures/servers/postgrest_double.py", "--db", url, "--lifetime", "3600"],
                                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                port = int(double.stdout.readline().split()[1])
                import json, urllib.request
                base = f"http://127.0.0.1:{port}"
                token = json.load(urllib.request.urlopen(base + "/_double/token?role=service_role"))["token"]
                env.update(SUPABASE_URL=base, SUPABASE_SERVICE_ROLE_KEY=token)
                target = "supabase"
            cmd = [binary, "import", path, "--campaign", "Spring farm", "--to", target, "--ledger", ledger, "--user", BENCH_USER, "--progress", "none"]
            try:
                for label, walls in (("first", firsts), ("rerun", reruns)):
                    start = time.perf_counter()
                    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
                    walls.append(time.perf_counter() - start)
                    if proc.returncode not in (0, 3):
                        sys.exit(f"leadport import --to {name} failed: {proc.stderr.decode()}")
                    summaries.append((label, proc.stderr.decode().strip().splitlines()[-1]))
                with conn.cursor() as cur:
                    cur.execute("SELECT count(*) FROM contacts")
                    contacts = cur.fetchone()[0]
                if double is not None:
                    stats = json.load(urllib.request.urlopen(base + "/_double/stats"))
            finally:
                conn.close()
                if double is not None:
                    double.kill()
        best, rerun = min(firsts), min(reruns)
        rate = IMPORT_ROWS / best
        rerun_summary = [s for label, s in summaries if label == "rerun"][-1]
        sent_nothing = "created 0, updated 0" in rerun_summary
        ok = rate >= minimum and rerun < best / 10 and sent_nothing
        failures += not ok
        print(f"{'import to ' + name:<18} {best:8.3f} {IMPORT_ROWS / minimum:8.2f} {rate:12,.0f} {'':>8} {'':>10} {'':>8}  "
              f"{'ok' if ok else 'MISSED'}  ({[s for label, s in summaries if label == 'first'][-1]}; {contacts} contacts"
              + (f"; {stats['writes']} write requests" if name != "postgres" else "") + ")")
        print(f"{'  rerun':<18} {rerun:8.3f} {best / 10:8.2f} {'':>12} {'':>8} {'':>10} {'':>8}  {best / rerun:.1f}x faster than the first; ({rerun_summary})")
    return failures


if __name__ == "__main__":
    main()
