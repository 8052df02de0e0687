-- When a sweeper first claimed the packet to close it at its expiry. Until the packet is refunded
-- (closed_at) the escrow pays no receipt's claim (a grab the grab store lost) directly: the
-- sweeper reads what the ledger paid after its claim, closes the packet in the grab store with the
-- remainder that leaves and refunds it, so a claim paid in between would be missing from that
-- remainder, and the refund would take its share from the packet's waiting payouts. The sweeper's
-- claim sets it holding the escrows' locks, which a claim's payment holds too, so the two are
-- ordered.
--
-- Nullable and without a default: adding it rewrites nothing. Packets claimed before it have none.
ALTER TABLE packet ADD COLUMN closing_at timestamptz;
