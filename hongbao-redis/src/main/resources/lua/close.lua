--[[
close.lua: close an expired packet and take back what nobody grabbed.

KEYS[1] meta hash      hb:{sNNN}:p:<id>
KEYS[2] shares list    hb:{sNNN}:p:<id>:shares
KEYS[3] payout stream  hb:{sNNN}:payouts
KEYS[4] dead letters   hb:{sNNN}:payouts:dead
ARGV[1] now (ms)   ARGV[2] amountIfMissing (fen)   ARGV[3] ttlAt (ms) for a tombstone
ARGV[4] packetId   ARGV[5] scan limit: the most stream entries to look through
ARGV[6] the packet's creation, epoch ms ('' when not known)

Replies (integer):
  >= 0  the remainder to refund: total - takenAmount; the same number on every later call
  -1    not expired yet (now < expireAt): nothing changed
  -3    the packet is held (its state belongs to another packet): nothing changed; the caller
        refunds from the ledger alone
  -2    no meta, and the shard's payout stream still holds tasks of this packet (or it, or the
        dead letters, are longer than the scan limit): its grabs are not all paid yet; nothing
        changed, try again later

No meta (never armed, the arm was lost, or the keys aged out or were lost): a tombstone meta is
written (status C, count 0, total = remainder, expiring at ttlAt) so that a late arm is a no-op
and the remainder is refunded exactly once. The caller passes what the ledger says is left (amount
- paid - refunded), never the face amount, and the close waits until no payout task of the packet
waits in the stream; the packet's dead-lettered payouts are taken off the remainder (never below
0), for an operator may still retry them and the escrow must still hold their money. So the
tombstone never claims money owed to a grabber. As in owed.lua, a dead letter naming another
creation (`c`) is another packet's under a reused id and takes nothing off; one naming none, or a
close that knows none, does: a remainder too small (reported by the reconciler), never too large.

Atomic because a script runs alone on the shard: once it has run, no grab can take a share
(status C, shares deleted), so grabbed + remainder = total whatever raced with it.
--]]
local meta = redis.call('HMGET', KEYS[1], 'status', 'expireAt', 'total', 'takenAmount', 'rem')
if not meta[1] then
  if redis.call('XLEN', KEYS[3]) > tonumber(ARGV[5]) then
    return -2
  end
  for _, entry in ipairs(redis.call('XRANGE', KEYS[3], '-', '+')) do
    local fields = entry[2]
    for i = 1, #fields, 2 do
      if fields[i] == 'p' and fields[i + 1] == ARGV[4] then
        return -2
      end
    end
  end
  if redis.call('XLEN', KEYS[4]) > tonumber(ARGV[5]) then
    return -2
  end
  local owed = 0
  for _, entry in ipairs(redis.call('XRANGE', KEYS[4], '-', '+')) do
    local fields = entry[2]
    local packet, fen, created
    for i = 1, #fields, 2 do
      if fields[i] == 'p' then
        packet = fields[i + 1]
      elseif fields[i] == 'a' then
        fen = fields[i + 1]
      elseif fields[i] == 'c' then
        created = fields[i + 1]
      end
    end
    local sameCreation = ARGV[6] == '' or created == nil or created == '' or created == ARGV[6]
    if packet == ARGV[4] and sameCreation then
      owed = owed + tonumber(fen)
    end
  end
  local left = tonumber(ARGV[2]) - owed
  if left < 0 then
    left = 0
  end
  local amount = string.format('%d', left)
  redis.call('HSET', KEYS[1], 'total', amount, 'count', 0, 'taken', 0, 'takenAmount', 0,
    'status', 'C', 'expireAt', ARGV[1], 'createdAt', ARGV[1], 'emptiedAt', '', 'pw', '',
    'type', '', 'ttlAt', ARGV[3], 'rem', amount)
  redis.call('PEXPIREAT', KEYS[1], ARGV[3])
  return tonumber(amount)
end
if meta[1] == 'C' then
  return tonumber(meta[5])
end
if meta[1] == 'H' then
  return -3
end
if tonumber(ARGV[1]) < tonumber(meta[2]) then
  return -1
end
local remainder = tonumber(meta[3]) - tonumber(meta[4])
redis.call('HSET', KEYS[1], 'status', 'C', 'rem', remainder)
redis.call('DEL', KEYS[2])
return remainder
