"""`bench/run.py --only badnight` (issue 22): one list to HubSpot, Follow Up Boss and Google
Contacts at once, first on a quiet night, then on a bad one against the same doubles set anew:
5 % of requests answered 503, 2 % of writes dropped after they were applied. Both nights reach
Google's per-minute write quota once (refilled only when its minute ends, as Google's quotas
are): a limit of the API, met every night, not a fault of one. The bad night must end in one
run with exit 0 or 3, every record held exactly once in every CRM, in at most 1.5 times the
quiet night's time.
"""
import json, os, subprocess, time, urllib.request

from common import fresh_ledger, verdict
from crm import Double, ImportFailed, crm_env, write_leads

LEADS = 2_000
MAX_RATIO = 1.5
SEED = 22


def post(double, path, body):
    request = urllib.request.Request(double.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def get(double, path):
    with urllib.request.urlopen(double.base + path, timeout=60) as answer:
        return json.load(answer)


def held_once(records, email_of):
    """(records held, emails held more than once)."""
    emails = [e.lower() for e in (email_of(r) for r in records) if e]
    return len(records), len(emails) - len(set(emails))


def night(binary, args, path, bad):
    """Wall seconds, exit status and (held, doubled) per CRM for one run of the list."""
    data = args.data
    with Double("hubspot_double.py", ["--burst", "100", "--window-ms", "10000"], os.path.join(data, "night-hubspot.log")) as hubspot, \
         Double("followupboss_double.py", ["--global-limit", "250", "--window", "10"], os.path.join(data, "night-fub.log")) as fub, \
         Double("google_people_double.py", ["--write-limit", "90", "--read-limit", "90", "--window", "60"], os.path.join(data, "night-google.log")) as google:
        # Both nights meet Google's per-minute write quota once: ten batches of 200 contacts
        # against six writes a minute, refilled only when the minute ends (a quota is the API's
        # limit, there on every night; the bad night adds the faults).
        post(google, "/_double/config", {"write_limit": 6, "refill": "window"})
        if bad:
            post(hubspot, "/_double/faults", {"error_rate": 0.05, "drop_rate": 0.02, "seed": SEED})
            post(fub, "/_double/faults", {"error_rate": 0.05, "drop_rate": 0.02, "seed": SEED})
            post(google, "/_double/faults", {"drop_rate": 0.02, "seed": SEED, "statuses": [[503, None], [503, None]]})
        env = crm_env(args, {
            "HUBSPOT_TOKEN": "pat-na1-00000000-0000-4000-8000-000000000000", "HUBSPOT_BASE_URL": hubspot.base,
            "FUB_API_KEY": "fub-test-key", "FUB_SYSTEM": "LeadPort", "FUB_SYSTEM_KEY": "fub-test-system-key", "FUB_BASE_URL": fub.base,
            "GOOGLE_CLIENT_ID": "leadport-double.apps.googleusercontent.com", "GOOGLE_CLIENT_SECRET": "leadport-double-client-secret",
            "GOOGLE_REFRESH_TOKEN": "1//leadport-double-refresh-token", "GOOGLE_PEOPLE_BASE_URL": google.base,
            "GOOGLE_TOKEN_URL": google.base + "/token"})
        ledger = fresh_ledger(args, "bad-night" if bad else "quiet-night")
        cmd = [binary, "import", path, "--to", "hubspot", "--to", "followupboss", "--to", "google-contacts",
               "--ledger", ledger, "--progress", "none"]
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, timeout=1800)
        wall = time.perf_counter() - start
        tail = " | ".join(proc.stderr.decode(errors="replace").strip().splitlines()[-4:])
        held = {
            "hubspot": held_once(get(hubspot, "/_double/state")["contacts"], lambda c: (c.get("properties") or {}).get("email")),
            "followupboss": held_once(get(fub, "/_double/state")["people"],
                                      lambda p: ((p.get("emails") or [{}])[0] or {}).get("value")),
            "google": held_once(get(google, "/_double/state")["contacts"],
                                lambda c: ((c.get("emailAddresses") or [{}])[0] or {}).get("value")),
        }
        faults = {"hubspot": get(hubspot, "/_double/stats"), "followupboss": get(fub, "/_double/stats"), "google": get(google, "/_double/stats")}
        return wall, proc.returncode, held, faults, tail


def bad_night_benchmark(binary, args):
    path = write_leads(os.path.join(args.data, "crm-2k.csv"), rows=LEADS, seed=21)
    missed = 0
    try:
        quiet, quiet_status, quiet_held, _, quiet_tail = night(binary, args, path, bad=False)
        bad, status, held, stats, tail = night(binary, args, path, bad=True)
    except (ImportFailed, OSError) as error:
        print(f"{'bad night':<18} FAIL  {error}")
        return 1
    for name, (count, doubled) in quiet_held.items():
        ok = quiet_status in (0, 3) and count == LEADS and doubled == 0
        missed += not ok
        print(f"{'quiet ' + name:<18} {quiet:8.3f} {'':>8} {LEADS / quiet:12,.0f}  {verdict(ok)}  {count} held, {doubled} twice, exit {quiet_status}"
              + ("" if ok else f" ({quiet_tail})"))
    for name, (count, doubled) in held.items():
        ok = status in (0, 3) and count == LEADS and doubled == 0
        missed += not ok
        s = stats[name]
        dropped = s.get("dropped", 0)
        print(f"{'bad ' + name:<18} {bad:8.3f} {quiet * MAX_RATIO:8.2f} {LEADS / bad:12,.0f}  {verdict(ok)}  {count} held, {doubled} twice, "
              f"exit {status}, {dropped} writes dropped after applying" + ("" if ok else f" ({tail})"))
    ok = bad <= quiet * MAX_RATIO
    missed += not ok
    print(f"{'bad/quiet':<18} {bad / quiet:8.2f} {MAX_RATIO:8.2f} {'':>12}  {verdict(ok)}  quiet night {quiet:.1f} s, bad night {bad:.1f} s")
    return missed
