"""How far `leadport sync --worker` goes (docs/scaling.md): run beside a throwaway PostgreSQL,

    scripts/with-postgres -- python3 bench/workers.py --binary .build/debug/leadport

Jobs of generated contacts go to the HubSpot double (100 requests per 10 s, as HubSpot) through
a shared ledger in a fresh database per case. It prints one JSON object per case:
- `sqlite`: 30 jobs x 300 rows, one `leadport sync` with a SQLite ledger (the baseline);
- `unlimited`: the same with the double's limit lifted, to see the workers' own ceiling;
- `workers`: the same with 1, 2 and 3 workers started together, then a second night with nothing
  new (one worker: the cost of a pair with nothing to send);
- `hydrate`: one pair with nothing new while the destination's shared ledger holds 9,000,
  100,000 and 300,000 entries (the extra ones inserted with SQL);
- `big_job`: one job of 9,000 rows, three workers, against the same in a SQLite ledger;
- `kill`: three workers, one SIGKILLed 2 s in; how long until another worker holds its pair.
Every process and the double stop by themselves; nothing is sent beyond 127.0.0.1.
"""
import argparse, json, os, signal, subprocess, sys, tempfile, time, urllib.request

import psycopg2

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = "pat-na1-00000000-0000-4000-8000-000000000000"


def say(case, **figures):
    print(json.dumps(dict(case=case, **figures)), flush=True)


class Double:
    """The HubSpot double on a free port, for one case."""
    def __init__(self, burst=100):
        self.process = subprocess.Popen([sys.executable, os.path.join(ROOT, "fixtures/servers/hubspot_double.py"),
                                         "--port", "0", "--lifetime", "900", "--burst", str(burst)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.port = int(self.process.stdout.readline().split()[1])

    def get(self, path):
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=30) as response:
            return json.load(response)

    def stats(self):
        s = self.get("/_double/stats")
        return {k: s[k] for k in ("requests", "created", "updated", "responses_429")}

    def stop(self):
        self.process.terminate()
        self.process.wait()


class Case:
    """A folder with jobs, a fresh database as the shared ledger and a fresh double."""
    def __init__(self, binary, admin_url, name, jobs, rows, lease=60, shared=True, burst=100):
        self.binary, self.dir = binary, tempfile.mkdtemp(prefix=f"leadport-{name}-")
        db = "bench_" + name
        c = psycopg2.connect(admin_url)
        c.autocommit = True
        c.cursor().execute(f"DROP DATABASE IF EXISTS {db}")
        c.cursor().execute(f"CREATE DATABASE {db}")
        c.close()
        self.url = admin_url.rsplit("/", 1)[0] + "/" + db
        self.double = Double(burst)
        lines = [f"ledger: {'$SHARED_LEDGER' if shared else 'leadport.db'}"] + ([f"lease_seconds: {lease}"] if shared else []) + ["jobs:"]
        os.makedirs(os.path.join(self.dir, "inbox"))
        for j in range(1, jobs + 1):
            with open(os.path.join(self.dir, f"inbox/job{j}.csv"), "w") as f:
                f.write("Name,Email,Phone\n")
                for r in range(1, rows + 1):
                    f.write(f"Person {j}-{r},p{j}-{r}@example.com,+1617{j:03d}{r:04d}\n")
            lines += [f"  - name: job{j}", f"    source: {{files: inbox/job{j}.csv}}", "    to: [hubspot]"]
        with open(os.path.join(self.dir, "sync.yaml"), "w") as f:
            f.write("\n".join(lines) + "\n")
        self.env = dict(os.environ, SHARED_LEDGER=self.url, HUBSPOT_TOKEN=TOKEN, HUBSPOT_BASE_URL=f"http://127.0.0.1:{self.double.port}",
                        XDG_CONFIG_HOME="/nonexistent/leadport-bench")

    def start(self, worker=True, extra=()):
        n = len(os.listdir(self.dir))
        err = open(os.path.join(self.dir, f"err-{n}.txt"), "w")
        args = [self.binary, "sync", "--config", os.path.join(self.dir, "sync.yaml"), "--progress", "none",
                "--summary-json", os.path.join(self.dir, f"summary-{n}.json")] + (["--worker"] if worker else []) + list(extra)
        p = subprocess.Popen(args, cwd=self.dir, env=self.env, stdout=subprocess.DEVNULL, stderr=err)
        p.summary, p.err = os.path.join(self.dir, f"summary-{n}.json"), err.name
        return p

    def run(self, workers, worker=True, extra=()):
        """Starts `workers` processes together; wall time until the last ends, and each one's pairs."""
        started = time.monotonic()
        ps = [self.start(worker, extra) for _ in range(workers)]
        for p in ps:
            p.wait(timeout=900)
        wall = time.monotonic() - started
        return wall, [p.returncode for p in ps], [self.pairs(p) for p in ps]

    @staticmethod
    def pairs(p):
        try:
            with open(p.summary) as f:
                return len(json.load(f)["jobs"])
        except (OSError, ValueError):
            return None

    def sql(self, query):
        with psycopg2.connect(self.url) as c:
            cur = c.cursor()
            cur.execute(query)
            rows = cur.fetchall() if cur.description else None
        c.close()
        return rows

    def stop(self):
        self.double.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--jobs", type=int, default=30)
    ap.add_argument("--rows", type=int, default=300)
    ap.add_argument("--only", choices=["sqlite", "workers", "unlimited", "hydrate", "big_job", "kill"])
    a = ap.parse_args()
    admin = os.environ["LEADPORT_TEST_POSTGRES"]
    binary = os.path.abspath(a.binary)
    jobs, rows = a.jobs, a.rows

    if a.only in (None, "sqlite"):
        c = Case(binary, admin, "sqlite", jobs, rows, shared=False)
        wall, codes, _ = c.run(1, worker=False)
        say("sqlite", jobs=jobs, rows=rows, seconds=round(wall, 1), jobs_per_minute=round(jobs * 60 / wall), status=codes, **c.double.stats())
        c.stop()

    if a.only in (None, "unlimited"):
        # The same without the double's rate limit: what the workers themselves manage on this machine.
        for n in (1, 2, 3):
            c = Case(binary, admin, f"u{n}", jobs, rows, burst=1_000_000)
            wall, codes, pairs = c.run(n)
            say("unlimited", workers=n, jobs=jobs, rows=rows, seconds=round(wall, 1), jobs_per_minute=round(jobs * 60 / wall),
                status=codes, pairs_per_worker=pairs, **c.double.stats())
            c.stop()

    hydrate_case = None
    if a.only in (None, "workers", "hydrate"):
        for n in ([1, 2, 3] if a.only != "hydrate" else [1]):
            c = Case(binary, admin, f"w{n}", jobs, rows)
            wall, codes, pairs = c.run(n)
            say("workers", workers=n, jobs=jobs, rows=rows, seconds=round(wall, 1), jobs_per_minute=round(jobs * 60 / wall),
                status=codes, pairs_per_worker=pairs, **c.double.stats())
            before = c.double.stats()["requests"]
            wall2, codes2, _ = c.run(1)
            say("second_night", workers=1, pairs=jobs, seconds=round(wall2, 2), per_pair_ms=round(wall2 * 1000 / jobs),
                status=codes2, requests=c.double.stats()["requests"] - before)
            if n == 1 and a.only != "workers":
                hydrate_case = c
            else:
                c.stop()

    if a.only in (None, "hydrate") and hydrate_case:
        c = hydrate_case
        (dest,), = c.sql("SELECT DISTINCT destination FROM leadport_ledger")
        added = 0
        for target in (9_000, 100_000, 300_000):
            have = c.sql("SELECT count(*) FROM leadport_ledger")[0][0]
            if target > have:
                c.sql(f"""INSERT INTO leadport_ledger SELECT destination, 'email:extra-' || g || '@example.com', 'x' || g, content_hash, run_id,
                          source_file, source_sheet, source_row, updated_at, row_hash, remote_version, created_run
                          FROM (SELECT * FROM leadport_ledger LIMIT 1) one, generate_series({added + 1}, {added + target - have}) g""")
                added += target - have
            times = []
            for _ in range(3):
                wall, codes, _ = c.run(1, extra=["--job", "job1"])
                times.append(wall)
            say("hydrate", destination=dest, ledger_rows=c.sql("SELECT count(*) FROM leadport_ledger")[0][0],
                best_seconds_one_pair=round(min(times), 2), status=codes)
        c.stop()

    if a.only in (None, "big_job"):
        for shared in (False, True):
            c = Case(binary, admin, "big" + ("w" if shared else "s"), 1, jobs * rows, shared=shared)
            wall, codes, pairs = c.run(3 if shared else 1, worker=shared)
            say("big_job", ledger="postgres, 3 workers" if shared else "sqlite, one sync", rows=jobs * rows, seconds=round(wall, 1),
                status=codes, pairs_per_worker=pairs, **c.double.stats())
            c.stop()

    if a.only in (None, "kill"):
        for lease in (5, 60):
            c = Case(binary, admin, f"kill{lease}", jobs, rows, lease=lease)
            started = time.monotonic()
            ps = [c.start() for _ in range(3)]
            time.sleep(2.0)
            victim = ps[0]
            held = c.sql(f"SELECT job, destination, lease_until - now() FROM leadport_claims WHERE holder LIKE '%:{victim.pid}:%'")
            os.kill(victim.pid, signal.SIGKILL)
            killed_at = time.monotonic()
            taken = None
            if held:
                job, dest, left = held[0]
                while time.monotonic() - killed_at < lease + 30:
                    row = c.sql(f"SELECT holder, finished_at FROM leadport_claims WHERE job = '{job}' AND destination = '{dest}'")[0]
                    if (row[0] and f":{victim.pid}:" not in row[0]) or row[1]:
                        taken = time.monotonic() - killed_at
                        break
                    time.sleep(0.05)
            for p in ps:
                p.wait(timeout=900)
            wall = time.monotonic() - started
            stats = c.double.stats()
            say("kill", lease_seconds=lease, held=held[0][0] if held else None, lease_left_at_kill=str(held[0][2]) if held else None,
                taken_over_after=round(taken, 1) if taken else None, seconds=round(wall, 1), status=[p.returncode for p in ps],
                contacts_ok=stats["created"] == jobs * rows, **stats)
            c.stop()


if __name__ == "__main__":
    main()
