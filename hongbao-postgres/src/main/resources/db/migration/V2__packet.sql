-- Packets as they were funded. Immutable but for two lifecycle marks: armed (pushed to the fast
-- store) and closed_at (the remainder went back to the sender, possibly zero).

-- Packet ids are never reused; the HTTP layer shows them Sqids-encoded.
CREATE SEQUENCE packet_id_seq AS bigint START WITH 1 INCREMENT BY 1;

CREATE TABLE packet (
    id           bigint      PRIMARY KEY,
    sender       text        NOT NULL,
    type         text        NOT NULL CHECK (type IN ('LUCKY', 'FIXED', 'EXCLUSIVE')),
    amount       bigint      NOT NULL CHECK (amount > 0),
    count        integer     NOT NULL CHECK (count > 0),
    greeting     text,
    -- the normalised 口令 phrase, null without one
    password_key text,
    -- who may grab an EXCLUSIVE packet; empty otherwise
    recipients   text[]      NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL,
    armed        boolean     NOT NULL DEFAULT false,
    -- set once, by the refund (in the same transaction as the refund transfer, if any)
    closed_at    timestamptz,
    CHECK (expires_at > created_at)
);

-- "Packets I sent", newest first, paged by id.
CREATE INDEX packet_by_sender ON packet (sender, id DESC);

-- The rearmer's work list: small, because a packet is armed right after it is sent.
CREATE INDEX packet_unarmed ON packet (created_at) WHERE NOT armed;

-- The expiry sweeper's work list: open packets by expiry.
CREATE INDEX packet_open_by_expiry ON packet (expires_at) WHERE closed_at IS NULL;
