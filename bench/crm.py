"""`bench/run.py --only crm` (issue 13): 10,000 leads into each CRM's local double, set to the
documented limits, and the same list again with the same ledger.

For each double the figure that matters is how close LeadPort's pacing comes to what the limit
allows: the ceiling is the least time the limit allows for the requests the run made in the
limited context (for a window of L requests per I seconds, floor((n - 1) / L) * I: the first L go
at once, the next L one window later), and utilisation = ceiling / wall must be at least 0.9.
When the run's requests fit in one window (n <= L) that least time is 0 and the limit cannot
slow anything; the ceiling is then the limit's sustained rate, n * I / L, and the line says so.
Every 429 is one a wait could have avoided (no fault is injected), so the target is none. The
rerun must send no write.

Follow Up Boss documents POST /v1/events as unlimited, so its 10,000 events are measured in
events/s with no ceiling; its ceiling case is 1,000 changed leads, each a PUT /v1/people/{id}
in the global context (250 requests per 10 s).
"""
import json, os, random, select, shutil, subprocess, sys, time, urllib.request

from common import fresh_ledger, summary_line, verdict
from generate import CITIES, FIRST, LAST, STREETS

LEADS = 10_000
CHANGED = 1_000
MIN_UTILISATION = 0.9
DOUBLES = "fixtures/servers"
# Area codes of generate.py's cities, in the same order, so that phones are US numbers.
AREA_CODES = ["617", "617", "512", "303", "305", "206", "503", "602"]


def lead_row(rng, i, changed=False):
    """Lead i: a unique email and phone (exchanges 201-210, none of them 555 or N11), and a US
    address. A changed lead has another phone line, which every CRM sends, and the same email."""
    first, last = rng.choice(FIRST), rng.choice(LAST)
    city = rng.randrange(len(CITIES))
    name, state, zipc = CITIES[city]
    line = i % 1000 + (6000 if changed else 1000)
    return [first, last, f"{first.lower()}.{last.lower()}.{i}@example.com".replace("'", ""),
            f"({AREA_CODES[city]}) {201 + i // 1000}-{line:04d}",
            f"{rng.randint(1, 9999)} {rng.choice(STREETS)}", name, state, zipc]


def write_leads(path, changed=0, seed=13, rows=LEADS, extra=None):
    """The deterministic list (seeded); with `changed`, its first `changed` leads changed; with
    `extra` (a column's name, and a function of the random generator giving its cell), that
    column last, quoted."""
    if os.path.exists(path):
        return path
    rng = random.Random(seed)
    with open(path + ".tmp", "w", encoding="utf-8", newline="") as f:
        f.write("First Name,Last Name,Email,Phone,Address,City,State,ZIP" + (f",{extra[0]}" if extra else "") + "\r\n")
        for i in range(rows):
            cell = extra[1](rng) if extra else None
            cells = lead_row(rng, i, i < changed)
            if extra:
                cells.append('"' + cell.replace('"', '""') + '"')
            f.write(",".join(cells) + "\r\n")
    os.replace(path + ".tmp", path)
    return path


class Double:
    """One CRM double on a free port (it binds port 0 and prints it), stopped on leaving."""

    def __init__(self, script, args, log):
        self.log = open(log, "w")
        self.proc = subprocess.Popen([sys.executable, os.path.join(DOUBLES, script), "--port", "0", "--lifetime", "3600"] + args,
                                     stdout=subprocess.PIPE, stderr=self.log)
        ready, _, _ = select.select([self.proc.stdout], [], [], 15)
        line = self.proc.stdout.readline().decode() if ready else ""
        if not line.startswith("listening"):
            self.stop()
            raise RuntimeError(f"{script} did not start (see {log})")
        self.base = f"http://127.0.0.1:{int(line.split()[1])}"

    def stats(self):
        with urllib.request.urlopen(self.base + "/_double/stats", timeout=30) as answer:
            return json.load(answer)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class ImportFailed(Exception):
    pass


def run_import(binary, path, to, ledger, env):
    """Wall seconds and summary line of one `leadport import`; ImportFailed with the stderr tail."""
    cmd = [binary, "import", path, "--to", to, "--ledger", ledger, "--progress", "none"]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, timeout=1800)
    except subprocess.TimeoutExpired:
        raise ImportFailed(f"--to {to} still running after 1800 s")
    wall = time.perf_counter() - start
    lines = proc.stderr.decode(errors="replace").strip().splitlines()
    if proc.returncode not in (0, 3):
        raise ImportFailed(f"--to {to} exit {proc.returncode}: " + " | ".join(lines[-5:]))
    return wall, summary_line("\n".join(lines))


def crm_env(args, extra):
    """The environment without any CRM setting of the caller's, and an XDG config folder that
    does not exist, so that no config file of the machine's is read."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("HUBSPOT_", "FUB_", "GOOGLE_")) and k != "LEADPORT_CONFIG"}
    env["XDG_CONFIG_HOME"] = os.path.join(os.path.abspath(args.data), "crm-no-config")
    shutil.rmtree(env["XDG_CONFIG_HOME"], ignore_errors=True)
    env.update(extra)
    return env


def ceiling(n, limit, interval):
    """(seconds, how): the least time a window of `limit` per `interval` s allows for n requests,
    or, when they fit in one window, the time at the limit's sustained rate."""
    least = (n - 1) // limit * interval if n > 0 else 0
    if least > 0:
        return least, f"{n} requests at {limit}/{interval:g} s"
    return n * interval / limit, f"{n} requests fit in one window of {limit}/{interval:g} s: sustained rate"


def paced_line(name, wall, rows, n, limit, interval, served_429, writes, summary):
    """Prints a run's line against its limit's ceiling; the number of targets missed."""
    least, how = ceiling(n, limit, interval)
    use = least / wall
    ok = use >= MIN_UTILISATION and served_429 == 0
    print(f"{name:<18} {wall:8.3f} {least / MIN_UTILISATION:8.2f} {rows / wall:12,.0f} {'':>8} {'':>10} {'':>8}  "
          f"{verdict(ok)}  utilisation {use:.2f} (ceiling {least:.1f} s: {how}), {served_429} 429s, {writes} writes  ({summary})")
    return not ok


def rerun_line(wall, writes, summary):
    ok = writes == 0
    print(f"{'  rerun':<18} {wall:8.3f} {'':>8} {'':>12} {'':>8} {'':>10} {'':>8}  {verdict(ok)}  {writes} writes  ({summary})")
    return not ok


def failed_line(name, error):
    print(f"{name:<18} {'':>8} {'':>8} {'':>12} {'':>8} {'':>10} {'':>8}  FAIL  {error}")
    return 1


def hubspot(binary, args, path):
    with Double("hubspot_double.py", ["--burst", "100", "--window-ms", "10000", "--batch-limit", "100"],
                os.path.join(args.data, "crm-hubspot-double.log")) as double:
        env = crm_env(args, {"HUBSPOT_TOKEN": "pat-na1-00000000-0000-4000-8000-000000000000",
                             "HUBSPOT_BASE_URL": double.base})
        ledger = fresh_ledger(args, "crm-hubspot")
        wall, summary = run_import(binary, path, "hubspot", ledger, env)
        first = double.stats()
        # The ten-second window counts every API request but search and the token endpoint,
        # and no refused one.
        n = sum(v for k, v in first["endpoints"].items() if k not in ("search", "oauth/token"))
        n -= first["rate_limited"]["ten_secondly"]
        missed = paced_line("hubspot 10k", wall, LEADS, n, 100, 10, first["responses_429"], first["writes"], summary)
        wall, summary = run_import(binary, path, "hubspot", ledger, env)
        return missed + rerun_line(wall, double.stats()["writes"] - first["writes"], summary)


def google(binary, args, path):
    with Double("google_people_double.py", ["--write-limit", "90", "--read-limit", "90", "--window", "60"],
                os.path.join(args.data, "crm-google-double.log")) as double:
        env = crm_env(args, {"GOOGLE_CLIENT_ID": "leadport-double.apps.googleusercontent.com",
                             "GOOGLE_CLIENT_SECRET": "leadport-double-client-secret",
                             "GOOGLE_REFRESH_TOKEN": "1//leadport-double-refresh-token",
                             "GOOGLE_PEOPLE_BASE_URL": double.base, "GOOGLE_TOKEN_URL": double.base + "/token"})
        ledger = fresh_ledger(args, "crm-google")
        wall, summary = run_import(binary, path, "google-contacts", ledger, env)
        first = double.stats()
        # The per-minute write quota is charged once per write request (batch_cost "request").
        missed = paced_line("google 10k", wall, LEADS, first["writes"], 90, 60, first["served_429"], first["writes"], summary)
        wall, summary = run_import(binary, path, "google-contacts", ledger, env)
        return missed + rerun_line(wall, double.stats()["writes"] - first["writes"], summary)


def fub_global_requests(stats):
    """Requests the global context admitted: all but the events routes, less its 429s."""
    return sum(v for k, v in stats["by_endpoint"].items() if not k.endswith(" /v1/events")) - stats["by_status"].get("429", 0)


def followupboss(binary, args, path, changed_path):
    with Double("followupboss_double.py", ["--global-limit", "250", "--window", "10"],
                os.path.join(args.data, "crm-followupboss-double.log")) as double:
        env = crm_env(args, {"FUB_API_KEY": "fub-test-key", "FUB_SYSTEM": "LeadPort",
                             "FUB_SYSTEM_KEY": "fub-test-system-key", "FUB_BASE_URL": double.base})
        ledger = fresh_ledger(args, "crm-followupboss")
        wall, summary = run_import(binary, path, "followupboss", ledger, env)
        first = double.stats()
        served = first["by_status"].get("429", 0)
        events = first["writes_by_endpoint"].get("POST /v1/events", 0)
        ok = served == 0 and events == LEADS
        print(f"{'followupboss 10k':<18} {wall:8.3f} {'':>8} {LEADS / wall:12,.0f} {'':>8} {'':>10} {'':>8}  "
              f"{verdict(ok)}  {events / wall:,.0f} events/s (POST /v1/events: no documented limit), {served} 429s, "
              f"{first['writes']} writes  ({summary})")
        missed = not ok
        wall, summary = run_import(binary, path, "followupboss", ledger, env)
        rerun = double.stats()
        missed += rerun_line(wall, rerun["writes"] - first["writes"], summary)
        wall, summary = run_import(binary, changed_path, "followupboss", ledger, env)
        last = double.stats()
        n = fub_global_requests(last) - fub_global_requests(rerun)
        served = last["by_status"].get("429", 0) - rerun["by_status"].get("429", 0)
        return missed + paced_line(f"  {CHANGED:,} changed", wall, CHANGED, n, 250, 10, served,
                                   last["writes"] - rerun["writes"], summary)


def crm_benchmark(binary, args):
    """Each CRM in turn; the number of targets missed. A double that does not start or an import
    that fails is one missed target, with the reason, and the next CRM still runs."""
    os.makedirs(args.data, exist_ok=True)
    path = write_leads(os.path.join(args.data, "crm-10k.csv"))
    changed_path = write_leads(os.path.join(args.data, "crm-10k-changed.csv"), CHANGED)
    missed = 0
    for name, run in (("hubspot", lambda: hubspot(binary, args, path)),
                      ("followupboss", lambda: followupboss(binary, args, path, changed_path)),
                      ("google-contacts", lambda: google(binary, args, path))):
        try:
            missed += run()
        except (ImportFailed, RuntimeError, OSError) as error:
            missed += failed_line(name, error)
    return missed
