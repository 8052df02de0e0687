-- The red-packet rain: campaigns with rounds and prize lines. A campaign is also a reward campaign
-- (reward_campaign, same id): its budget sits in the escrow 'campaign:<id>' and pays its CASH
-- prizes through the reward pipeline.

-- A new transfer kind, added to whatever kinds the check allows by now:
--   'campaign-return:<id>'  CAMPAIGN_RETURN  campaign escrow -> system (the unspent budget, once)
DO $$
DECLARE
    definition text;
BEGIN
    SELECT pg_get_constraintdef(oid) INTO definition FROM pg_constraint
    WHERE conrelid = 'transfer'::regclass AND conname = 'transfer_kind_check';
    IF definition IS NOT NULL AND position('''CAMPAIGN_RETURN''' IN definition) = 0 THEN
        EXECUTE 'ALTER TABLE transfer DROP CONSTRAINT transfer_kind_check';
        EXECUTE 'ALTER TABLE transfer ADD CONSTRAINT transfer_kind_check '
            || replace(definition, 'ARRAY[', 'ARRAY[''CAMPAIGN_RETURN''::text, ');
    END IF;
END $$;

CREATE SEQUENCE campaign_number_seq;

-- Written in the transaction that funds the escrow and stores the creating Idempotency-Key, so a
-- campaign exists if and only if its budget moved. Never updated, except to mark the return.
CREATE TABLE campaign (
    id                       text        PRIMARY KEY REFERENCES reward_campaign (id),
    name                     text        NOT NULL,
    budget                   bigint      NOT NULL CHECK (budget > 0),
    max_wins_per_user        integer     NOT NULL CHECK (max_wins_per_user > 0),
    taps_per_user_per_second integer     NOT NULL CHECK (taps_per_user_per_second > 0),
    starts_at                timestamptz NOT NULL,
    ends_at                  timestamptz NOT NULL CHECK (ends_at > starts_at),
    created_at               timestamptz NOT NULL,
    -- the Idempotency-Key (operator, key) it was created under
    created_by               text        NOT NULL,
    creation_key             text        NOT NULL,
    -- the unspent budget moved back (transfer 'campaign-return:<id>'); set once, never changed
    returned_amount          bigint      CHECK (returned_amount >= 0 AND returned_amount <= budget),
    returned_at              timestamptz,
    CHECK ((returned_amount IS NULL) = (returned_at IS NULL)),
    UNIQUE (created_by, creation_key)
);
CREATE INDEX campaign_unreturned ON campaign (ends_at) WHERE returned_at IS NULL;

CREATE TABLE campaign_round (
    campaign_id  text        NOT NULL REFERENCES campaign (id),
    number       integer     NOT NULL CHECK (number BETWEEN 1 AND 24),
    starts_at    timestamptz NOT NULL,
    duration_ms  bigint      NOT NULL CHECK (duration_ms > 0),
    sub_pools    integer     NOT NULL CHECK (sub_pools BETWEEN 1 AND 1024),
    PRIMARY KEY (campaign_id, number)
);

CREATE TABLE campaign_prize (
    campaign_id  text    NOT NULL,
    round        integer NOT NULL,
    line         integer NOT NULL CHECK (line BETWEEN 0 AND 19),
    type         text    NOT NULL,
    amount       bigint  NOT NULL CHECK (amount > 0),
    count        bigint  NOT NULL CHECK (count BETWEEN 1 AND 10000000),
    PRIMARY KEY (campaign_id, round, line),
    FOREIGN KEY (campaign_id, round) REFERENCES campaign_round (campaign_id, number)
);
