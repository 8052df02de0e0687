--[[
grab.lua: one user's attempt at one packet.

KEYS[1] meta hash      hb:{sNNN}:p:<id>
KEYS[2] shares list    hb:{sNNN}:p:<id>:shares
KEYS[3] grabs hash     hb:{sNNN}:p:<id>:grabs   user -> "amount|grabMillis|seq"
KEYS[4] eligible set   hb:{sNNN}:p:<id>:elig
KEYS[5] payout stream  hb:{sNNN}:payouts
ARGV[1] userId   ARGV[2] now (ms)   ARGV[3] password key or ""   ARGV[4] packetId

Replies (array; the first element names the outcome):
  {'GRABBED', amount}          took a share now; a payout task {p, u, a, t} was appended
  {'ALREADY_GRABBED', amount}  took this amount earlier (answered forever, even after expiry)
  {'EXPIRED'}                  closed or past expireAt with shares left, or a close tombstone
  {'NOT_ELIGIBLE'}             EXCLUSIVE packet and the user is no recipient
  {'WRONG_PASSWORD'}           the packet has a password key and ARGV[3] differs
  {'SOLD_OUT'}                 no share left (stays so after expiry once the packet emptied)
  {'NOT_FOUND'}                no meta: never armed, or its keys expired

Checks run in exactly this order. Atomic because a script runs alone on the shard: the check
for an earlier grab, the pop of a share, the record of the grab and the payout task happen with
nothing in between, so no share is handed out twice, no user gets two, and every recorded grab
has its payout task. The grabs value and the stream fields are kept short: they are the memory
each grab costs.
--]]
local meta = redis.call('HMGET', KEYS[1], 'count', 'taken', 'status', 'expireAt', 'pw', 'type',
  'ttlAt')
local count = meta[1]
if not count then
  return {'NOT_FOUND'}
end
count = tonumber(count)
local taken = tonumber(meta[2])
local user = ARGV[1]
local now = ARGV[2]

local earlier = redis.call('HGET', KEYS[3], user)
if earlier then
  local amount = string.match(earlier, '^(%d+)|')
  return {'ALREADY_GRABBED', tonumber(amount)}
end

-- A close tombstone (count 0) stands for a packet that was refunded without ever being armed.
if count == 0 then
  return {'EXPIRED'}
end
if (meta[3] == 'C' or tonumber(now) >= tonumber(meta[4])) and taken < count then
  return {'EXPIRED'}
end
if meta[6] == 'E' and redis.call('SISMEMBER', KEYS[4], user) == 0 then
  return {'NOT_ELIGIBLE'}
end
if meta[5] ~= '' and meta[5] ~= ARGV[3] then
  return {'WRONG_PASSWORD'}
end

local share = redis.call('LPOP', KEYS[2])
if not share then
  return {'SOLD_OUT'}
end
local seq = redis.call('HINCRBY', KEYS[1], 'taken', 1)
redis.call('HINCRBY', KEYS[1], 'takenAmount', share)
redis.call('HSET', KEYS[3], user, share .. '|' .. now .. '|' .. seq)
if seq == 1 then
  redis.call('PEXPIREAT', KEYS[3], meta[7])
end
if seq == count then
  redis.call('HSET', KEYS[1], 'emptiedAt', now)
end
redis.call('XADD', KEYS[5], '*', 'p', ARGV[4], 'u', user, 'a', share, 't', now)
return {'GRABBED', tonumber(share)}
