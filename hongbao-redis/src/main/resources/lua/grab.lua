--[[
grab.lua: one user's attempt at one packet.

KEYS[1] meta hash      hb:{sNNN}:p:<id>
KEYS[2] shares list    hb:{sNNN}:p:<id>:shares
KEYS[3] grabs hash     hb:{sNNN}:p:<id>:grabs   user -> "amount|grabMillis|seq"
KEYS[4] eligible set   hb:{sNNN}:p:<id>:elig
KEYS[5] payout stream  hb:{sNNN}:payouts
KEYS[6] activity hash  hb:{sNNN}:a:<activity>   user -> "p1,p2,...", only for a packet of an
                       activity (meta field lim), whose shard is the activity's
KEYS[last] pending hash hb:{u:<user>}:pending  packetId -> amount, only when ARGV[6] is given
                       (one server: the user's slot is on the same server; a cluster writes it
                       after the reply instead, see RedisGrabStore)
ARGV[1] userId   ARGV[2] now (ms)   ARGV[3] password key or "": the caller has matched the grab's phrase already (by pinyin, say)
        and passes the packet's own key when it matched   ARGV[4] packetId
ARGV[5] r: a uniform integer in [0, 2^31), used only by a packet split at grab time (mode G)
ARGV[6] pending TTL (ms) or absent/"": when given, a GRABBED also sets the user's pending entry
        and (re)sets the pending hash's TTL, in the same atomic step as the payout task

In mode G the share is cut from what is left, M fen in N shares, exactly as Java's
AtGrabSplit.nextShare (cap = M when there is none):
  N == 1: M;  else hi = min(floor(2M/N), M-(N-1), cap), lo = max(1, M-cap*(N-1)),
  share = lo + r mod (hi-lo+1).
Every value stays below 2^53, so Lua's doubles compute the same integers as Java's longs.

Replies (one string: the outcome, then its numbers, separated by spaces):
  'GRABBED amount seq created' took a share now, as the packet's seq-th grab, of the packet
                               created at 'created' (ms; left out for a packet armed before
                               meta kept it); a payout task {p, u, a, t, c} was appended (and the
                               pending entry set, with ARGV[6])
  'ALREADY_GRABBED amount'     took this amount earlier (answered forever, even after expiry)
  'EXPIRED'                    closed or past expireAt with shares left, or a close tombstone
  'NOT_ELIGIBLE'               EXCLUSIVE packet and the user is no recipient
  'WRONG_PASSWORD'             the packet has a password key and ARGV[3] differs
  'LIMIT_REACHED'              a packet of an activity, and the user has grabbed lim shares of
                               the activity's packets already
  'SOLD_OUT'                   no share left (stays so after expiry once the packet emptied)
  'NOT_FOUND'                  no meta: never armed, or its keys expired (or were lost)
  'HELD'                       status H: the state here belongs to another packet (see arm.lua)
A string, not an array: Redis 6.2 (the embedded server) builds a script's array reply in a buffer
node of its own and writes each node with a write() of its own, so on a connection that pipelines
grabs every reply cost one system call; strings share one buffer, written once per pass.

Checks run in exactly this order. Atomic because a script runs alone on the shard: the check
for an earlier grab, the check of the user's activity count, the pop of a share, the record of
the grab, the count and the payout task happen with nothing in between, so no share is handed out
twice, no user gets two, no user grabs more than lim shares of an activity, and every recorded
grab has its payout task. The grabs value and the stream fields are kept short: they are the memory
each grab costs.
--]]
local meta = redis.call('HMGET', KEYS[1], 'count', 'taken', 'status', 'expireAt', 'pw', 'type',
  'ttlAt', 'mode', 'total', 'takenAmount', 'cap', 'lim', 'createdAt')
local count = meta[1]
if not count then
  return 'NOT_FOUND'
end
count = tonumber(count)
local taken = tonumber(meta[2])
local user = ARGV[1]
local now = ARGV[2]

local earlier = redis.call('HGET', KEYS[3], user)
if earlier then
  local amount = string.match(earlier, '^(%d+)|')
  return 'ALREADY_GRABBED ' .. amount
end

if meta[3] == 'H' then
  return 'HELD'
end
-- A close tombstone (count 0) stands for a packet that was refunded without ever being armed.
if count == 0 then
  return 'EXPIRED'
end
if (meta[3] == 'C' or tonumber(now) >= tonumber(meta[4])) and taken < count then
  return 'EXPIRED'
end
if meta[6] == 'E' and redis.call('SISMEMBER', KEYS[4], user) == 0 then
  return 'NOT_ELIGIBLE'
end
if meta[5] ~= '' and meta[5] ~= ARGV[3] then
  return 'WRONG_PASSWORD'
end
local lim = tonumber(meta[12])
local mine
if lim then
  mine = redis.call('HGET', KEYS[6], user)
  if mine and select(2, string.gsub(mine, ',', ',')) + 1 >= lim then
    return 'LIMIT_REACHED'
  end
end

local share
if meta[8] == 'G' then
  local left = count - taken
  if left <= 0 then
    return 'SOLD_OUT'
  end
  local m = tonumber(meta[9]) - tonumber(meta[10])
  if left == 1 then
    share = m
  else
    local cap = tonumber(meta[11])
    if cap == 0 then
      cap = m
    end
    local hi = math.floor(2 * m / left)
    if hi > m - (left - 1) then
      hi = m - (left - 1)
    end
    if hi > cap then
      hi = cap
    end
    local lo = 1
    if m - cap * (left - 1) > lo then
      lo = m - cap * (left - 1)
    end
    share = lo + (tonumber(ARGV[5]) % (hi - lo + 1))
  end
  share = string.format('%d', share)
else
  share = redis.call('LPOP', KEYS[2])
  if not share then
    return 'SOLD_OUT'
  end
end
-- One HSET for the counters (and emptiedAt): nothing ran since the HMGET above, so taken + 1 is
-- what HINCRBY would answer, and each call saved is work on the shard's only thread.
local seq = taken + 1
local takenAmount = string.format('%d', tonumber(meta[10]) + tonumber(share))
if seq == count then
  redis.call('HSET', KEYS[1], 'taken', seq, 'takenAmount', takenAmount, 'emptiedAt', now)
else
  redis.call('HSET', KEYS[1], 'taken', seq, 'takenAmount', takenAmount)
end
redis.call('HSET', KEYS[3], user, share .. '|' .. now .. '|' .. seq)
if seq == 1 then
  redis.call('PEXPIREAT', KEYS[3], meta[7])
end
if lim then
  redis.call('HSET', KEYS[6], user, mine and (mine .. ',' .. ARGV[4]) or ARGV[4])
end
redis.call('XADD', KEYS[5], '*', 'p', ARGV[4], 'u', user, 'a', share, 't', now, 'c', meta[13] or '')
if ARGV[6] and ARGV[6] ~= '' then
  local pending = KEYS[#KEYS]
  redis.call('HSET', pending, ARGV[4], share)
  redis.call('PEXPIRE', pending, ARGV[6])
end
if meta[13] then
  return 'GRABBED ' .. share .. ' ' .. string.format('%d', seq) .. ' ' .. meta[13]
end
return 'GRABBED ' .. share .. ' ' .. string.format('%d', seq)
