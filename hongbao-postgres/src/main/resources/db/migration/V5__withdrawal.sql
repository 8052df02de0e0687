-- Withdrawals: money leaving the service through a payment gateway.
--
-- The money of a withdrawal lives in an account of its own, 'withdrawal:<id>' (kind WITHDRAWAL),
-- from the request until it settles: one account per withdrawal rather than one shared in-flight
-- account, so that "this withdrawal's money is in flight" is a balance anyone can read, the
-- reconciliation is local to one row, and no hot row serialises every request. Money that left for
-- good is credited to the one 'gateway' account (kind GATEWAY): its balance is everything the
-- gateway paid out, which the gateway's statements must add up to.
--
-- Transfers, each at most once by its unique key:
--   'withdraw:<id>'         WITHDRAW         wallet            -> withdrawal:<id>  (at request)
--   'withdraw-paid:<id>'    WITHDRAW_PAID    withdrawal:<id>   -> gateway          (SUCCEEDED)
--   'withdraw-return:<id>'  WITHDRAW_RETURN  withdrawal:<id>   -> wallet           (FAILED)
-- A withdrawal is therefore in the wallet, in flight or at the gateway, never in two of them.

ALTER TABLE account DROP CONSTRAINT account_kind_check;
ALTER TABLE account ADD CONSTRAINT account_kind_check
    CHECK (kind IN ('WALLET', 'ESCROW', 'SYSTEM', 'WITHDRAWAL', 'GATEWAY'));

INSERT INTO account (id, kind, balance) VALUES ('gateway', 'GATEWAY', 0);

ALTER TABLE transfer DROP CONSTRAINT transfer_kind_check;
ALTER TABLE transfer ADD CONSTRAINT transfer_kind_check
    CHECK (kind IN ('TOPUP', 'SEND', 'GRAB', 'REFUND',
                    'WITHDRAW', 'WITHDRAW_PAID', 'WITHDRAW_RETURN'));

-- V1 tied a null packet id to top-ups; now it belongs to every movement that is not a packet's.
ALTER TABLE transfer DROP CONSTRAINT transfer_check1;
ALTER TABLE transfer ADD CONSTRAINT transfer_packet_id_check
    CHECK ((kind IN ('SEND', 'GRAB', 'REFUND')) = (packet_id IS NOT NULL));

-- Withdrawal ids are never reused; the out-trade-no is derived from the id.
CREATE SEQUENCE withdrawal_id_seq AS bigint START WITH 1 INCREMENT BY 1;

-- The state machine (WithdrawalStatus): REQUESTED -> SENT -> SUCCEEDED | FAILED, SENT <-> UNKNOWN.
-- A row changes only together with a withdrawal_transition row saying why, and a settling change
-- only together with the transfer that empties the in-flight account.
CREATE TABLE withdrawal (
    id            bigint      PRIMARY KEY,
    user_id       text        NOT NULL,
    amount        bigint      NOT NULL CHECK (amount > 0),
    -- The gateway's idempotency key, the same on every retry: unique, so two withdrawals can never
    -- share one payment.
    out_trade_no  text        NOT NULL UNIQUE,
    status        text        NOT NULL
        CHECK (status IN ('REQUESTED', 'SENT', 'UNKNOWN', 'SUCCEEDED', 'FAILED')),
    -- the gateway's reference of the payment; set on SUCCEEDED
    gateway_ref   text,
    -- why it is in its status: the cause of its newest transition
    cause         text        NOT NULL,
    -- transfer requests made; a re-send after NOT_FOUND must still see the count it asked about
    attempts      integer     NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    -- transfer answers "FAIL, retryable"; too many and the money goes back
    refusals      integer     NOT NULL DEFAULT 0 CHECK (refusals >= 0),
    -- times a janitor took it up; drives the janitor's backoff
    checks        integer     NOT NULL DEFAULT 0 CHECK (checks >= 0),
    -- when a janitor should next look at it (also its lease); null once settled, never before
    next_check_at timestamptz,
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL,
    CHECK ((status IN ('SUCCEEDED', 'FAILED')) = (next_check_at IS NULL)),
    CHECK ((status = 'REQUESTED') = (attempts = 0)),
    CHECK (gateway_ref IS NULL OR status = 'SUCCEEDED')
);

-- "My withdrawals", newest first, paged by id.
CREATE INDEX withdrawal_by_user ON withdrawal (user_id, id DESC);

-- The janitor's work list: only unsettled withdrawals, by due time. Small, because most settle
-- within a second of their request.
CREATE INDEX withdrawal_due ON withdrawal (next_check_at) WHERE next_check_at IS NOT NULL;

-- Reconciliation reads the withdrawals of the last days.
CREATE INDEX withdrawal_by_created ON withdrawal (created_at);

-- Every move of every withdrawal, with its cause; never updated or deleted.
CREATE TABLE withdrawal_transition (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    withdrawal_id bigint      NOT NULL REFERENCES withdrawal (id),
    -- null for the creation
    from_status   text,
    to_status     text        NOT NULL,
    cause         text        NOT NULL,
    at            timestamptz NOT NULL,
    CHECK (from_status IS DISTINCT FROM to_status)
);

CREATE INDEX withdrawal_transition_by_withdrawal ON withdrawal_transition (withdrawal_id, id);
