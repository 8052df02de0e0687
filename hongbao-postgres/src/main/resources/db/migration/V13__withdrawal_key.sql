-- The Idempotency-Key a withdrawal was requested under, kept with it for good. The key's stored
-- answer is purged after its retention; the same key again must then not pay out a second time
-- (the client is retrying a request it made long ago), so it is refused as a conflict. Withdrawals
-- made before this column existed have none (NULLs never collide).
ALTER TABLE withdrawal ADD COLUMN idempotency_key text;
CREATE UNIQUE INDEX withdrawal_by_idempotency_key ON withdrawal (user_id, idempotency_key);
