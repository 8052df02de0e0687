-- An operator's resolution of a refused claim: a receipt of a grab the ledger could no longer pay
-- was reported until its grab was paid, which after a refund never happened, so the report stayed
-- for ever. An operator now answers it once: COMPENSATE pays the claim's amount into the user's
-- wallet from the system account (the packet's escrow no longer holds it), DISMISS pays nothing;
-- either way it is no longer reported.

-- A new transfer kind, added to whatever kinds the check allows by now:
--   'compensation:<refused claim id>'  COMPENSATION  system -> the user's wallet (once)
DO $$
DECLARE
    definition text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint
    WHERE conrelid = 'transfer'::regclass AND conname = 'transfer_kind_check';
    IF definition IS NOT NULL AND position('''COMPENSATION''' IN definition) = 0 THEN
        EXECUTE 'ALTER TABLE transfer DROP CONSTRAINT transfer_kind_check';
        EXECUTE 'ALTER TABLE transfer ADD CONSTRAINT transfer_kind_check '
            || replace(definition, 'ARRAY[', 'ARRAY[''COMPENSATION''::text, ');
    END IF;
END $$;

-- A compensation names the packet the claim was of, as the packet's own kinds do. The packet's
-- books (its grabs, its refund, its escrow) read those kinds by name and leave it out.
-- Two checks said the same by now (V5's and V6's); one stays.
ALTER TABLE transfer DROP CONSTRAINT IF EXISTS transfer_packet_id_check;
ALTER TABLE transfer DROP CONSTRAINT transfer_packet_kinds;
ALTER TABLE transfer ADD CONSTRAINT transfer_packet_kinds
    CHECK ((packet_id IS NOT NULL) = (kind IN ('SEND', 'GRAB', 'REFUND', 'COMPENSATION')));

-- The number an operator resolves a refused claim by.
ALTER TABLE refused_claim ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE refused_claim ADD PRIMARY KEY (id);

ALTER TABLE refused_claim ADD COLUMN decision text CHECK (decision IN ('COMPENSATE', 'DISMISS'));
ALTER TABLE refused_claim ADD COLUMN decision_note text;
ALTER TABLE refused_claim ADD COLUMN decided_at timestamptz;
ALTER TABLE refused_claim ADD CONSTRAINT refused_claim_decided
    CHECK ((decision IS NULL) = (decided_at IS NULL) AND (decision IS NULL) = (decision_note IS NULL));
