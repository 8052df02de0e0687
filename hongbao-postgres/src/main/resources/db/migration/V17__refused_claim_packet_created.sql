-- The packet creation a refused claim's receipt named (null: a receipt that names none). A refused
-- claim stops being reported once its grab is paid, but a payment of the ledger's packet under the
-- id does not pay a receipt of an older packet the id was handed out for before a restore from a
-- backup: the two are told apart by this time.
ALTER TABLE refused_claim ADD COLUMN packet_created_at timestamptz;
