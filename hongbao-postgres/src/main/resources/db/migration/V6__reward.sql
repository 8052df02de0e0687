-- The reward pipeline's books: campaign escrows funded from the system account, one row per
-- reward tradeNo (the global idempotency key), and the built-in coupon book.

-- New transfer kinds, added to whatever kinds the check allows by now (other migrations may have
-- added their own), so this migration never takes a kind away:
--   'campaign:<campaignId>'  CAMPAIGN  system          -> campaign escrow (the budget, once)
--   'reward:<tradeNo>'       REWARD    campaign escrow -> the user's wallet (a CASH reward, once)
DO $$
DECLARE
    definition text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint
    WHERE conrelid = 'transfer'::regclass AND conname = 'transfer_kind_check';
    IF definition IS NOT NULL AND position('''REWARD''' IN definition) = 0 THEN
        EXECUTE 'ALTER TABLE transfer DROP CONSTRAINT transfer_kind_check';
        EXECUTE 'ALTER TABLE transfer ADD CONSTRAINT transfer_kind_check '
            || replace(definition, 'ARRAY[', 'ARRAY[''CAMPAIGN''::text, ''REWARD''::text, ');
    END IF;
END $$;

-- "Only TOPUP has no packet" becomes "exactly the packet kinds have a packet": kinds added by
-- other features (rewards, campaigns, withdrawals) carry no packet id.
DO $$
DECLARE
    name text;
BEGIN
    FOR name IN
        SELECT conname FROM pg_constraint
        WHERE conrelid = 'transfer'::regclass AND contype = 'c'
          AND pg_get_constraintdef(oid) LIKE '%packet_id IS NULL%'
    LOOP
        EXECUTE format('ALTER TABLE transfer DROP CONSTRAINT %I', name);
    END LOOP;
END $$;
ALTER TABLE transfer ADD CONSTRAINT transfer_packet_kinds
    CHECK ((packet_id IS NOT NULL) = (kind IN ('SEND', 'GRAB', 'REFUND')));

-- The campaign a CAMPAIGN or REWARD transfer belongs to; null for the others.
ALTER TABLE transfer ADD COLUMN campaign_id text;
CREATE INDEX transfer_by_campaign ON transfer (campaign_id, kind) WHERE campaign_id IS NOT NULL;

-- A campaign as rewards need it: an id and the budget moved into 'campaign:<id>' (an ESCROW
-- account). The row and the funding transfer are written in one transaction.
CREATE TABLE reward_campaign (
    id         text        PRIMARY KEY,
    budget     bigint      NOT NULL CHECK (budget > 0),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- One row per tradeNo, inserted in the same transaction as the money (CASH) or the coupon, so a
-- reward is issued at most once whoever delivers it: a second insert waits for the first
-- transaction and then finds the row. digest identifies the request: the same tradeNo with another
-- digest is a conflict, never a second issue.
CREATE TABLE reward (
    trade_no    text        PRIMARY KEY,
    digest      text        NOT NULL,
    user_id     text        NOT NULL,
    campaign_id text        NOT NULL,
    scene       text        NOT NULL,
    type        text        NOT NULL,
    kind        text        NOT NULL CHECK (kind IN ('CASH', 'COUPON', 'ITEM')),
    amount      bigint      NOT NULL CHECK (amount > 0),
    descr       text        NOT NULL,
    awarded_at  timestamptz NOT NULL,
    -- CREDITED: issued; FAILED: refused for good by the issuer (in the failure stream)
    status      text        NOT NULL CHECK (status IN ('CREDITED', 'FAILED')),
    note        text,
    settled_at  timestamptz NOT NULL DEFAULT now()
);

-- A user's statement, newest first; a campaign's reconciliation.
CREATE INDEX reward_by_user ON reward (user_id, awarded_at DESC);
CREATE INDEX reward_by_campaign ON reward (campaign_id);

-- The built-in issuer of coupons and items (types without an issuer URL).
CREATE TABLE coupon (
    trade_no  text        PRIMARY KEY REFERENCES reward (trade_no),
    user_id   text        NOT NULL,
    type      text        NOT NULL,
    amount    bigint      NOT NULL CHECK (amount > 0),
    issued_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX coupon_by_user ON coupon (user_id);
