--[[
close.lua: close an expired packet and take back what nobody grabbed.

KEYS[1] meta hash    hb:{sNNN}:p:<id>
KEYS[2] shares list  hb:{sNNN}:p:<id>:shares
ARGV[1] now (ms)   ARGV[2] amountIfMissing (fen)   ARGV[3] ttlAt (ms) for a tombstone

Replies (integer):
  >= 0  the remainder to refund: total - takenAmount; the same number on every later call
  -1    not expired yet (now < expireAt): nothing changed

No meta (never armed, or the arm was lost): a tombstone meta is written (status C, count 0,
total = remainder = amountIfMissing, expiring at ttlAt) so that a late arm is a no-op and the
whole amount is refunded exactly once.

Atomic because a script runs alone on the shard: once it has run, no grab can take a share
(status C, shares deleted), so grabbed + remainder = total whatever raced with it.
--]]
local meta = redis.call('HMGET', KEYS[1], 'status', 'expireAt', 'total', 'takenAmount', 'rem')
if not meta[1] then
  local amount = ARGV[2]
  redis.call('HSET', KEYS[1], 'total', amount, 'count', 0, 'taken', 0, 'takenAmount', 0,
    'status', 'C', 'expireAt', ARGV[1], 'createdAt', ARGV[1], 'emptiedAt', '', 'pw', '',
    'type', '', 'ttlAt', ARGV[3], 'rem', amount)
  redis.call('PEXPIREAT', KEYS[1], ARGV[3])
  return tonumber(amount)
end
if meta[1] == 'C' then
  return tonumber(meta[5])
end
if tonumber(ARGV[1]) < tonumber(meta[2]) then
  return -1
end
local remainder = tonumber(meta[3]) - tonumber(meta[4])
redis.call('HSET', KEYS[1], 'status', 'C', 'rem', remainder)
redis.call('DEL', KEYS[2])
return remainder
