-- The first successful answer to an idempotent request, per (user, endpoint, Idempotency-Key).
-- The row is inserted in the same transaction as the money it answers for, so a key is stored if
-- and only if its money moved. Two racing requests with one key: the second insert waits for the
-- first transaction and then finds the key taken.
CREATE TABLE idempotency (
    user_id      text        NOT NULL,
    endpoint     text        NOT NULL,
    key          text        NOT NULL,
    -- digest of the request's JSON value: same key and different hash is a conflict
    request_hash text        NOT NULL,
    status       integer     NOT NULL,
    body         text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, endpoint, key)
);

-- Keys must live at least 24 h; this index lets a janitor purge older ones.
CREATE INDEX idempotency_by_age ON idempotency (created_at);
