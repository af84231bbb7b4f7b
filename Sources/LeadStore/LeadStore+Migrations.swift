import Foundation
import GRDB

extension LeadStore {
    /// campaign_id look-ups on campaign_addresses use the (campaign_id, seq) index, which
    /// `nextSeq` needs anyway, so there is no index on campaign_id alone to keep up to date.
    /// The per-row CHECKs are written as OR chains: SQLite evaluates `x IN ('a','b',…)` by
    /// building a temporary table on every insert, which was half of the insert time.
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("flyr-tables") { db in
            try db.execute(sql: """
                CREATE TABLE campaigns (
                  id TEXT PRIMARY KEY, owner_id TEXT NOT NULL, name TEXT NOT NULL,
                  type TEXT, address_source TEXT CHECK (address_source IN ('closest_home','import_list','map','same_street')),
                  status TEXT DEFAULT 'draft', total_flyers INTEGER DEFAULT 0,
                  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                CREATE TABLE campaign_addresses (
                  id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
                  address TEXT, formatted TEXT, house_number TEXT, street_name TEXT, locality TEXT, region TEXT,
                  postal_code TEXT, coordinate TEXT, gers_id TEXT, seq INTEGER,
                  source TEXT CHECK (source = 'closest_home' OR source = 'import_list' OR source = 'map' OR source = 'same_street'),
                  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                CREATE UNIQUE INDEX uq_addresses_campaign_gers ON campaign_addresses(campaign_id, gers_id) WHERE gers_id IS NOT NULL;
                CREATE INDEX idx_addresses_campaign_seq ON campaign_addresses(campaign_id, seq);
                CREATE TABLE contacts (
                  id TEXT PRIMARY KEY, user_id TEXT NOT NULL, full_name TEXT NOT NULL, phone TEXT, email TEXT,
                  address TEXT, campaign_id TEXT REFERENCES campaigns(id), address_id TEXT REFERENCES campaign_addresses(id) ON DELETE SET NULL,
                  status TEXT CHECK (status = 'hot' OR status = 'warm' OR status = 'cold' OR status = 'new'), notes TEXT,
                  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
                  updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                CREATE INDEX idx_contacts_campaign ON contacts(campaign_id);
                CREATE TABLE leadport_runs (
                  id TEXT PRIMARY KEY, started_at TEXT NOT NULL, finished_at TEXT, inputs TEXT NOT NULL,
                  rows INTEGER, created INTEGER, updated INTEGER, unchanged INTEGER, skipped INTEGER, rejected INTEGER);
                CREATE TABLE leadport_ledger (
                  destination TEXT NOT NULL, dedupe_key TEXT NOT NULL, remote_id TEXT NOT NULL, content_hash TEXT NOT NULL,
                  run_id TEXT NOT NULL, source_file TEXT, source_sheet TEXT, source_row INTEGER,
                  updated_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
                  PRIMARY KEY (destination, dedupe_key));
                """)
        }
        // The store's own rows were first recorded under `sqlite:` and the path the database
        // was opened by, so a rerun through another spelling of the path, or after the file
        // was moved, found no ledger and created every lead again. They are all this file's.
        m.registerMigration("ledger-own-destination") { db in
            try db.execute(sql: """
                UPDATE OR IGNORE leadport_ledger SET destination = '\(ownLedger)' WHERE destination LIKE 'sqlite:%';
                DELETE FROM leadport_ledger WHERE destination LIKE 'sqlite:%';
                """)
        }
        // What a row looked like when its lead was delivered (a hash of its cells and of
        // everything that turns cells into a lead), so that a rerun can pass over an unchanged
        // row without building its lead again. Kept for remote destinations only.
        m.registerMigration("ledger-row-hash") { db in
            try db.execute(sql: """
                ALTER TABLE leadport_ledger ADD COLUMN row_hash TEXT;
                CREATE INDEX idx_ledger_row_hash ON leadport_ledger(destination, row_hash) WHERE row_hash IS NOT NULL;
                """)
        }
        // The record's version at the destination as LeadPort last wrote it, where the API has
        // one (Google's etag): what tells a record a person changed since from one LeadPort left.
        m.registerMigration("ledger-remote-version") { db in
            try db.execute(sql: "ALTER TABLE leadport_ledger ADD COLUMN remote_version TEXT")
        }
        // The enrichment's answers, by `EnrichCache.key`: a row asked again with the
        // same endpoint, model, spec and content is answered from here, at no cost.
        m.registerMigration("enrich-cache") { db in
            try db.execute(sql: """
                CREATE TABLE leadport_enrich_cache (
                  key TEXT PRIMARY KEY, answer TEXT NOT NULL,
                  created_at TEXT DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')));
                """)
        }
        // `leadport undo`: which run created each record, what each update replaced,
        // and where each run wrote.
        m.registerMigration("undo") { db in
            try db.execute(sql: """
                ALTER TABLE leadport_ledger ADD COLUMN created_run TEXT;
                CREATE INDEX idx_ledger_created_run ON leadport_ledger(created_run) WHERE created_run IS NOT NULL;
                CREATE TABLE leadport_history (
                  run_id TEXT NOT NULL, destination TEXT NOT NULL, dedupe_key TEXT NOT NULL, remote_id TEXT NOT NULL,
                  before TEXT, after TEXT NOT NULL, previous_hash TEXT);
                CREATE INDEX idx_history_run ON leadport_history(run_id);
                ALTER TABLE leadport_runs ADD COLUMN destinations TEXT;
                """)
        }
        // `leadport sync`: each job's state (its watermark, the files it delivered
        // whole) and its runs, one row per destination.
        m.registerMigration("sync") { db in
            try db.execute(sql: """
                CREATE TABLE leadport_sync_state (job TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (job, name));
                CREATE TABLE leadport_sync_runs (
                  run_id TEXT NOT NULL, job TEXT NOT NULL, destination TEXT NOT NULL, started_at TEXT NOT NULL, seconds REAL NOT NULL,
                  created INTEGER NOT NULL, updated INTEGER NOT NULL, unchanged INTEGER NOT NULL, skipped INTEGER NOT NULL,
                  rejected INTEGER NOT NULL, failed INTEGER NOT NULL, pending INTEGER NOT NULL, failures TEXT NOT NULL, stopped TEXT,
                  PRIMARY KEY (run_id, destination));
                CREATE INDEX idx_sync_runs_job ON leadport_sync_runs(job, started_at);
                """)
        }
        registerQRCodes(&m)
        // `leadport status` lists imports (issue 26): each destination's own counts, since the
        // run's are summed over its destinations (30 rows to two CRMs are not "created 52").
        m.registerMigration("run-destination-counts") { db in
            try db.execute(sql: "ALTER TABLE leadport_runs ADD COLUMN outcomes TEXT; ALTER TABLE leadport_runs ADD COLUMN failed INTEGER; ALTER TABLE leadport_runs ADD COLUMN pending INTEGER")
        }
        // Which ledger records a run created is found from where in the ledger its records
        // begin (`ledger_floor`: the ledger's last rowid before the run's first record), not
        // from an index on `created_run`: the index cost every import about a tenth of its time
        // (the 100k-row benchmark list, in pairs with and without it). Each run recorded before
        // is given its floor from the index, which then goes.
        m.registerMigration("ledger-run-floor") { db in
            try db.execute(sql: """
                ALTER TABLE leadport_runs ADD COLUMN ledger_floor INTEGER;
                UPDATE leadport_runs SET ledger_floor = (SELECT min(rowid) - 1 FROM leadport_ledger WHERE created_run = leadport_runs.id);
                DROP INDEX IF EXISTS idx_ledger_created_run;
                """)
        }
        return m
    }
}
