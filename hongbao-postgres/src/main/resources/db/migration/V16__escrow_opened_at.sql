-- When an escrow was opened: its packet's creation time. The grab store writes the creation time
-- of the packet it held into each payout task; a task naming another one belongs to an earlier
-- packet of the same id, which the ledger forgot when it was restored from a backup while the grab
-- store kept that packet's tasks. The payout refuses it instead of paying it from the new packet's
-- money. Read from the escrow rows the payout already locks, so the check costs no extra read.
--
-- Nullable and without a default, so adding it rewrites nothing and takes its lock only briefly.
-- Escrows opened before this migration (and by instances still running the old version during a
-- rolling start) have none, and their payouts are not checked.
ALTER TABLE account ADD COLUMN opened_at timestamptz;
