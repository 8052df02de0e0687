-- The packet creation a refused claim's receipt named (null: a receipt that names none). A refused
-- claim stops being reported once its grab is paid, but a payment of the ledger's packet under the
-- id does not pay a receipt of an older packet the id was handed out for before a restore from a
-- backup: the two are told apart by this time. One row per (packet, user, creation named), so a
-- refusal of the older packet's receipt is kept beside one of the newer packet's.
ALTER TABLE refused_claim ADD COLUMN packet_created_at timestamptz;
ALTER TABLE refused_claim DROP CONSTRAINT refused_claim_pkey;
ALTER TABLE refused_claim
    ADD CONSTRAINT refused_claim_once UNIQUE NULLS NOT DISTINCT (packet_id, user_id, packet_created_at);
