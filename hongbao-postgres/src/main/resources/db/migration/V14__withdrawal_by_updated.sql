-- The audit compares every withdrawal created or moved within its window with the gateway's
-- statements: one created the day before and settled late is found by when it settled.
CREATE INDEX withdrawal_by_updated ON withdrawal (updated_at);
