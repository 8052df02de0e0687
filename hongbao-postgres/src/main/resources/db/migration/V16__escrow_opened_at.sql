-- When an escrow was opened: its packet's creation time. A payout whose grab is older than the
-- escrow (by more than the clocks' skew) belongs to an earlier packet of the same id, which the
-- ledger forgot when it was restored from a backup while the grab store kept that packet's tasks;
-- the payout statement refuses it instead of paying it from the new packet's money. Kept on the
-- account row the payout already updates, so the check costs no extra read.
--
-- Nullable and without a default, so adding it rewrites nothing and takes its lock only briefly.
-- Escrows opened before this migration (and by instances still running the old version during a
-- rolling start) have none, and their payouts are not checked.
ALTER TABLE account ADD COLUMN opened_at timestamptz;
