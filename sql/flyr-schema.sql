-- The FLYR tables LeadPort writes to, for a PostgreSQL database that lacks them (a test
-- server, or a new user's own database). A Supabase project of the FLYR app has them already;
-- running this there changes nothing (every statement is IF NOT EXISTS).
--
--   psql "$DATABASE_URL" -f sql/flyr-schema.sql
--
-- Taken from the FLYR app's schema (campaigns, campaign_addresses, contacts) with two
-- differences, both for databases without Supabase's extensions:
--   * the PostGIS columns (campaigns.territory_boundary, campaign_addresses.geom) are left
--     out; LeadPort writes neither, and a database with PostGIS may add them;
--   * auth.users, which Supabase provides, is created as a bare table of user ids when it is
--     missing, so that campaigns.owner_id can refer to it as it does on Supabase.

CREATE SCHEMA IF NOT EXISTS auth;
CREATE TABLE IF NOT EXISTS auth.users (
  id UUID PRIMARY KEY
);

CREATE TABLE IF NOT EXISTS campaigns (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id UUID NOT NULL REFERENCES auth.users(id),
  name TEXT NOT NULL,
  type TEXT CHECK (type IN ('flyer', 'door_knock', 'event', 'survey', 'gift', 'pop_by', 'open_house', 'letters')),
  address_source TEXT CHECK (address_source IN ('closest_home', 'import_list', 'map', 'same_street')),
  status TEXT DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'completed', 'paused')),
  provision_status TEXT CHECK (provision_status IN ('pending', 'ready', 'failed')),
  destination_url TEXT,
  video_url TEXT,
  seed_query TEXT,
  bbox DOUBLE PRECISION[],
  total_flyers INTEGER DEFAULT 0,
  scans INTEGER DEFAULT 0,
  conversions INTEGER DEFAULT 0,
  created_at TIMESTAMPTZ DEFAULT now()
);
CREATE INDEX IF NOT EXISTS idx_campaigns_owner ON campaigns(owner_id);
CREATE INDEX IF NOT EXISTS idx_campaigns_status ON campaigns(status);

CREATE TABLE IF NOT EXISTS campaign_addresses (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  campaign_id UUID NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  address TEXT,
  formatted TEXT,
  house_number TEXT,
  street_name TEXT,
  locality TEXT,
  region TEXT,
  postal_code TEXT,
  coordinate JSONB,
  building_outline JSONB,
  gers_id TEXT,
  building_gers_id TEXT,
  road_bearing DOUBLE PRECISION,
  house_bearing DOUBLE PRECISION,
  is_oriented BOOLEAN DEFAULT false,
  orientation_locked BOOLEAN DEFAULT false,
  qr_code_base64 TEXT,
  purl TEXT,
  qr_png_url TEXT,
  visited BOOLEAN DEFAULT false,
  scans INTEGER DEFAULT 0,
  last_scanned_at TIMESTAMPTZ,
  seq INTEGER,
  source TEXT CHECK (source IN ('closest_home', 'import_list', 'map', 'same_street')),
  created_at TIMESTAMPTZ DEFAULT now(),
  CONSTRAINT unique_address_per_campaign UNIQUE (campaign_id, gers_id)
);
CREATE INDEX IF NOT EXISTS idx_addresses_campaign ON campaign_addresses(campaign_id);
CREATE INDEX IF NOT EXISTS idx_addresses_gers ON campaign_addresses(gers_id);
CREATE INDEX IF NOT EXISTS idx_addresses_scans ON campaign_addresses(scans);
CREATE INDEX IF NOT EXISTS idx_addresses_purl ON campaign_addresses(purl);

CREATE TABLE IF NOT EXISTS farms (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id UUID NOT NULL,
  name TEXT NOT NULL,
  created_at TIMESTAMPTZ DEFAULT now()
);

CREATE TABLE IF NOT EXISTS contacts (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id UUID NOT NULL,
  full_name TEXT NOT NULL,
  phone TEXT,
  email TEXT,
  address TEXT,
  campaign_id UUID REFERENCES campaigns(id),
  farm_id UUID REFERENCES farms(id),
  gers_id UUID,
  address_id UUID REFERENCES campaign_addresses(id) ON DELETE SET NULL,
  status TEXT CHECK (status IN ('hot', 'warm', 'cold', 'new')),
  last_contacted TIMESTAMP,
  notes TEXT,
  reminder_date TIMESTAMP,
  created_at TIMESTAMPTZ DEFAULT now(),
  updated_at TIMESTAMPTZ DEFAULT now()
);
CREATE INDEX IF NOT EXISTS idx_contacts_user ON contacts(user_id);
CREATE INDEX IF NOT EXISTS idx_contacts_gers ON contacts(gers_id);
CREATE INDEX IF NOT EXISTS idx_contacts_campaign_gers ON contacts(campaign_id, gers_id);

-- FLYR's QR codes (technical reference §3.2), one per campaign address: `leadport export vdp`
-- creates a slug for each address that has none and keeps it. landing_page_id refers to
-- campaign_landing_pages in the FLYR app; that table is not created here, so neither is the
-- reference.
CREATE TABLE IF NOT EXISTS qr_codes (
  id UUID PRIMARY KEY DEFAULT gen_random_uuid(),
  campaign_id UUID REFERENCES campaigns(id),
  address_id UUID REFERENCES campaign_addresses(id),
  landing_page_id UUID,
  farm_id UUID,
  batch_id UUID,
  slug TEXT UNIQUE NOT NULL,
  qr_url TEXT,
  qr_image TEXT,
  destination_type TEXT CHECK (destination_type IN ('landingPage', 'directLink')),
  direct_url TEXT,
  qr_variant TEXT CHECK (qr_variant IN ('A', 'B')),
  metadata JSONB,
  created_at TIMESTAMPTZ DEFAULT now(),
  updated_at TIMESTAMPTZ DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_qr_slug ON qr_codes(slug);
CREATE INDEX IF NOT EXISTS idx_qr_campaign ON qr_codes(campaign_id);
CREATE INDEX IF NOT EXISTS idx_qr_address ON qr_codes(address_id);
