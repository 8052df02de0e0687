-- The double-entry ledger (TigerBeetle style): accounts hold balances, transfers are immutable
-- postings that move a positive amount from one account to another. A balance is only ever
-- changed in the same transaction that inserts the transfer explaining it, so for every account
--     balance = sum(credits) - sum(debits)
-- which the audit (PostgresLedgerAudit.accountProblems) checks.

-- One row per account:
--   'wallet:<userId>'   a user's wallet, created on its first credit
--   'escrow:<packetId>' the money of one packet between send and payout/refund
--   'system'            funds top-ups; the only account allowed below zero
CREATE TABLE account (
    id      text   PRIMARY KEY,
    kind    text   NOT NULL CHECK (kind IN ('WALLET', 'ESCROW', 'SYSTEM')),
    balance bigint NOT NULL DEFAULT 0,
    -- Not only code: the database itself refuses an overdraft of a wallet or an escrow. A payout
    -- batch that would drive an escrow negative fails as a whole.
    CONSTRAINT account_balance_not_negative CHECK (kind = 'SYSTEM' OR balance >= 0)
);

INSERT INTO account (id, kind, balance) VALUES ('system', 'SYSTEM', 0);

-- Every movement of money. The unique key makes each movement happen at most once, whoever
-- retries it:
--   'topup:<requester>:<endpoint>:<idempotency key>'
--                                       system           -> wallet (scoped like the key: two
--                                                           operators may reuse one key string)
--   'send:<packetId>'                   sender's wallet  -> escrow
--   'grab:<packetId>:<userId>'          escrow           -> grabber's wallet
--   'refund:<packetId>'                 escrow           -> sender's wallet
-- No foreign keys to account: payout batches insert hundreds of rows per statement and a wallet
-- may be created by the same statement's upsert. The audit reports a transfer whose account is
-- missing instead.
CREATE TABLE transfer (
    id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key            text        NOT NULL UNIQUE,
    kind           text        NOT NULL CHECK (kind IN ('TOPUP', 'SEND', 'GRAB', 'REFUND')),
    debit_account  text        NOT NULL,
    credit_account text        NOT NULL,
    amount         bigint      NOT NULL CHECK (amount > 0),
    -- null for a top-up
    packet_id      bigint,
    -- the user whose wallet is on one side: top-up receiver, sender, grabber, refund receiver
    user_id        text        NOT NULL,
    -- when the share was grabbed in the fast store (GRAB only); created_at is when it was posted
    grabbed_at     timestamptz,
    created_at     timestamptz NOT NULL DEFAULT now(),
    CHECK (debit_account <> credit_account),
    CHECK ((kind = 'TOPUP') = (packet_id IS NULL))
);

-- Wallet history, newest first: a wallet appears on either side of a transfer.
CREATE INDEX transfer_by_debit_account ON transfer (debit_account, id DESC);
CREATE INDEX transfer_by_credit_account ON transfer (credit_account, id DESC);

-- Per-packet questions: which grabs were paid, what was refunded.
CREATE INDEX transfer_by_packet ON transfer (packet_id, kind) WHERE packet_id IS NOT NULL;

-- "Packets I was paid from", newest packet first, paged by packet id.
CREATE INDEX transfer_grabs_by_wallet ON transfer (credit_account, packet_id DESC)
    WHERE kind = 'GRAB';
