-- The Idempotency-Key a withdrawal was requested under, kept with it for good. The key's stored
-- answer is purged after its retention; the same key again must then not pay out a second time
-- (the client is retrying a request it made long ago), so it is refused as a conflict. Withdrawals
-- made before this column existed have none (NULLs never collide).
ALTER TABLE withdrawal ADD COLUMN idempotency_key text;
CREATE UNIQUE INDEX withdrawal_by_idempotency_key ON withdrawal (user_id, idempotency_key);

-- The audit compares every withdrawal created or settled within its window with the gateway's
-- statements: one created the day before and settled late is found by when it settled.
CREATE INDEX withdrawal_by_updated ON withdrawal (updated_at);
