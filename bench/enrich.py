"""`bench/run.py --only enrich` (issue 14): 10,000 leads through `leadport enrich`, 20 rows a
request, against the OpenAI double (fixtures/servers/openai_double.py) at 500 requests and
200,000 tokens a minute, then the same list again with the same ledger. Takes six and a half
minutes: the run is charged some 1.46 million tokens, of which the limit lets 200,000 go at once
and the rest at 200,000 a minute; that pace is what is measured.

The double answers each request after latency_ms + ms_per_token x its completion tokens
(LATENCY_MS, MS_PER_TOKEN below: 400 ms and 2 ms a token, about 1.2 s for 20 rows' answers of some 410 tokens), so
several requests are in flight at once, as they would be against OpenAI.

Targets:
- tokens a minute: at least 90% of the ceiling used. The double charges a request its estimated
  prompt tokens plus its max_tokens when it admits it (as OpenAI does), from a bucket that holds
  a minute's worth and starts full. So a run may spend one bucket (200,000 tokens) at once, and
  the rest no faster than 200,000 a minute: the least time the limit allows for the run's
  charged tokens is (charged - one bucket) / tpm minutes, and utilisation = that least time /
  the run's wall time (as bench/crm.py reckons its CRMs). Printed beside it, from the double's
  log of each request: the rate of the tokens charged to requests admitted after the first
  minute, once the full bucket is spent, against the 200,000 a minute.
- no 429: no fault is injected, so every 429 is one the pacer could have waited out.
- every row enriched, none rejected, skipped or pending.
- the rerun, with the same ledger, sends no request to the double.
"""
import json, os, subprocess, time, urllib.request

from common import fresh_ledger, verdict
from crm import Double, write_leads

ROWS = 10_000
ROWS_PER_REQUEST = 20
RPM, TPM = 500, 200_000
LATENCY_MS, MS_PER_TOKEN = 400, 2
MIN_UTILISATION = 0.9
MODEL = "gpt-4o-mini"
KEY = "sk-double-0000"

# What an agent writes in a lead's notes, up to three to a lead (the empty one: no remark).
NOTES = [
    "Met at the Saturday open house.", "Asked about school districts.", "Pre-approved with their bank.",
    "Renting now, lease ends in spring.", "Wants a bigger yard for the dog.", "Relocating for work this summer.",
    "Only looking, no timeline.", "Inherited the house, thinking of selling.", "Asked what their home is worth.",
    "Downsizing now the kids have left.", "Call after 6pm.", "Prefers text to calls.",
    "Second visit, brought a partner.", "Needs to sell before buying.", "Cash buyer.",
    "Saw the listing on Zillow.", "Neighbour of 12 Oak Ave.", "Interested in condos under 500k.",
    "Asked about HOA fees.", "Do not call on weekends.", "",
]

SPEC = f"""\
model: {MODEL}
instructions: >-
  You qualify real-estate leads from an open house sign-in list. For each lead, judge from the
  notes how ready they are to buy or sell, how likely they are to transact this year, and when.
fields:
  status:
    enum: [hot, warm, cold, new]
    description: "hot: ready now; warm: within months; cold: no plan; new: too little to say"
    maps_to: status
  score:
    type: integer
    description: "0 to 100: how likely the lead is to buy or sell within a year"
  timeline:
    enum: ["0-3 months", "3-6 months", "6-12 months", "over a year", unknown]
    description: "when they mean to move, from the notes"
rows_per_request: {ROWS_PER_REQUEST}
prices: {{input: 0.15, output: 0.60}}
"""


def notes(rng):
    """A lead's Notes cell."""
    return " ".join(n for n in rng.sample(NOTES, rng.randint(1, 3)) if n)


def run_enrich(binary, path, spec, ledger, out, env):
    """Wall seconds and the run_finished event of one `leadport enrich`, with the 429 retries
    it reported; RuntimeError with the stderr's end when it fails."""
    cmd = [binary, "enrich", path, "--spec", spec, "--export", out, "--ledger", ledger, "--progress", "jsonl"]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, timeout=1800)
    except subprocess.TimeoutExpired:
        raise RuntimeError("leadport enrich still running after 1800 s")
    wall = time.perf_counter() - start
    lines = proc.stderr.decode(errors="replace").strip().splitlines()
    if proc.returncode != 0:
        raise RuntimeError(f"leadport enrich exit {proc.returncode}: " + " | ".join(lines[-5:]))
    events = []
    for line in lines:
        try:
            events.append(json.loads(line))
        except ValueError:
            pass
    finished = next((e for e in reversed(events) if e.get("event") == "run_finished"), None)
    if finished is None:
        raise RuntimeError("no run_finished event: " + " | ".join(lines[-5:]))
    retries = sum(1 for e in events if e.get("event") == "batch" and "429" in str(e.get("status", "")))
    return wall, finished, retries


def admitted(double):
    """(seconds since the double's reset, tokens charged) of each request it admitted."""
    with urllib.request.urlopen(double.base + "/_double/requests?limit=100000", timeout=30) as answer:
        records = json.load(answer)["requests"]
    return [(r["at"], r["charged"]) for r in records if r.get("status") == 200 and r.get("charged")]


def steady_rate(requests):
    """Tokens a minute charged to the requests admitted more than a minute after the first, over
    the time from that minute to the last of them; None when the run was shorter."""
    if not requests:
        return None
    start = requests[0][0] + 60
    later = [(at, charged) for at, charged in requests if at > start]
    if len(later) < 2 or later[-1][0] <= start:
        return None
    return sum(c for _, c in later) / ((later[-1][0] - start) / 60)


def summary_of(finished):
    keys = ("rows", "enriched", "cached", "skipped", "rejected", "pending", "requests", "prompt_tokens", "completion_tokens")
    return ", ".join(f"{k} {finished.get(k)}" for k in keys)


def enrich_benchmark(binary, args):
    """The first run and its rerun against one double; the number of targets missed."""
    os.makedirs(args.data, exist_ok=True)
    path = write_leads(os.path.join(args.data, "enrich-10k.csv"), seed=14, rows=ROWS, extra=("Notes", notes))
    spec = os.path.join(args.data, "enrich-bench.yaml")
    with open(spec, "w", encoding="utf-8") as f:
        f.write(SPEC)
    knobs = ["--rpm", str(RPM), "--tpm", str(TPM), "--latency-ms", str(LATENCY_MS), "--ms-per-token", str(MS_PER_TOKEN),
             "--keep-requests", "100000", "--model", MODEL]
    print(f"enrich: {ROWS:,} rows, {ROWS_PER_REQUEST} a request, double at {RPM} rpm / {TPM:,} tpm, "
          f"latency {LATENCY_MS} ms + {MS_PER_TOKEN} ms a completion token (some six and a half minutes)...", flush=True)
    try:
        with Double("openai_double.py", knobs, os.path.join(args.data, "enrich-openai-double.log")) as double:
            env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
            env.update(OPENAI_BASE_URL=double.base + "/v1", OPENAI_API_KEY=KEY)
            ledger = fresh_ledger(args, "enrich")
            out = os.path.join(args.data, "enrich-out.csv")
            wall, finished, retries = run_enrich(binary, path, spec, ledger, out, env)
            first = double.stats()
            steady = steady_rate(admitted(double))
            wall2, rerun, _ = run_enrich(binary, path, spec, ledger, out, env)
            second = double.stats()
    except (RuntimeError, OSError) as error:
        print(f"{'enrich 10k':<18} {'':>8} {'':>8} {'':>12} {'':>8} {'':>10} {'':>8}  FAIL  {error}")
        return 1
    charged = first["tokens"]["charged"]
    least = max(0, charged - TPM) / TPM * 60
    use = least / wall
    served_429 = first["responses_429"]
    use_ok, no_429 = use >= MIN_UTILISATION, served_429 == 0
    all_ok = finished.get("enriched") == ROWS
    steady_text = f"{steady:,.0f} tokens/min ({steady / TPM:.2f} of tpm)" if steady else "n/a (run under a minute)"
    print(f"{'enrich 10k':<18} {wall:8.3f} {least / MIN_UTILISATION:8.2f} {ROWS / wall:12,.1f} {'':>8} {'':>10} {'':>8}  "
          f"{verdict(use_ok)}  tokens/min utilisation {use:.2f} (ceiling {least:.1f} s: {charged:,} tokens charged less one "
          f"full bucket of {TPM:,}, at {TPM:,}/min); after the first minute {steady_text}; peak minute "
          f"{first['peak_minute_tokens']:,} tokens, {first['peak_minute_requests']} requests")
    print(f"{'  429s':<18} {'':>8} {'':>8} {'':>12} {'':>8} {'':>10} {'':>8}  {verdict(no_429)}  {served_429} 429s "
          f"(rate_limited {first['rate_limited']}, {retries} retry events), {first['requests']} requests, "
          f"max {first['max_in_flight']} in flight")
    print(f"{'  rows':<18} {'':>8} {'':>8} {'':>12} {'':>8} {'':>10} {'':>8}  {verdict(all_ok)}  {summary_of(finished)}, "
          f"cost ${finished.get('cost', 0):.4f}")
    sent = second["requests"] - first["requests"]
    rerun_ok = sent == 0 and rerun.get("cached") == ROWS
    print(f"{'  rerun':<18} {wall2:8.3f} {'':>8} {'':>12} {'':>8} {'':>10} {'':>8}  {verdict(rerun_ok)}  {sent} requests at the "
          f"double  ({summary_of(rerun)})")
    return (not use_ok) + (not no_429) + (not all_ok) + (not rerun_ok)
