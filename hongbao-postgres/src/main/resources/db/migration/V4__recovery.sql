-- Recovery from a fast store that lost acknowledged writes. The ledger is the truth, so the
-- limits that keep a packet from paying beyond its books live here, as constraints, not only in
-- the grab script that Redis may have rolled back.

-- How many more grabs an escrow may pay out. Set to the packet's count when the escrow opens and
-- decremented by the same statement that debits the escrow for each paid grab; the CHECK refuses
-- the payout of a share that was handed out twice after a Redis data loss, whatever the amounts.
-- (The amount is already bounded: an escrow's balance cannot go below zero.) Null for accounts
-- that are not escrows.
ALTER TABLE account ADD COLUMN shares_left integer
    CONSTRAINT account_shares_left_not_negative CHECK (shares_left >= 0);

UPDATE account a SET shares_left = p.count - (
        SELECT count(*) FROM transfer t WHERE t.packet_id = p.id AND t.kind = 'GRAB')
    FROM packet p WHERE a.id = 'escrow:' || p.id;

-- A refund that failed for a reason other than an outage is retried with backoff, without
-- blocking the packets behind it in the sweeper's list; the last failure is kept for the
-- reconciler to report.
ALTER TABLE packet ADD COLUMN refund_attempts integer NOT NULL DEFAULT 0;
ALTER TABLE packet ADD COLUMN refund_retry_at timestamptz;
ALTER TABLE packet ADD COLUMN refund_error text;

-- A packet whose fast-store state belongs to something else (its id was reused after PostgreSQL
-- was restored from a backup while Redis kept newer state) is held: never armed over that state,
-- refunded whole at expiry, reported until an operator clears it.
ALTER TABLE packet ADD COLUMN held_reason text;

DROP INDEX packet_open_by_expiry;
CREATE INDEX packet_open_by_expiry ON packet (expires_at, refund_retry_at) WHERE closed_at IS NULL;

-- Grab receipts whose packet's books could no longer pay them (the share went to someone else
-- after a Redis data loss, or the remainder was already refunded). One row per (packet, user):
-- what the reconciler reports as destroyed by the fault.
CREATE TABLE refused_claim (
    packet_id bigint      NOT NULL,
    user_id   text        NOT NULL,
    amount    bigint      NOT NULL CHECK (amount > 0),
    reason    text        NOT NULL,
    at        timestamptz NOT NULL,
    PRIMARY KEY (packet_id, user_id)
);
