--[[
arm.lua: put a funded packet into the store, or rebuild it from the ledger after a loss.

KEYS[1] meta hash     hb:{sNNN}:p:<id>
KEYS[2] shares list   hb:{sNNN}:p:<id>:shares
KEYS[3] eligible set  hb:{sNNN}:p:<id>:elig
KEYS[4] grabs hash    hb:{sNNN}:p:<id>:grabs
KEYS[5] activity hash hb:{sNNN}:a:<activity>, only for a packet of an activity (lim > 0)
ARGV[1] total (fen)          ARGV[2] count
ARGV[3] expireAt (ms)        ARGV[4] createdAt (ms)
ARGV[5] password key or ""   ARGV[6] type: L | F | E
ARGV[7] ttlAt (ms): when every key of the packet expires (expireAt + grace)
ARGV[8] now (ms)
ARGV[9] split mode: P (pre-split: the shares follow) | G (cut each share at grab time)
ARGV[10] cap per share in fen for mode G (0: none)
ARGV[11] n = number of shares (0 in mode G)
ARGV[12] g = number of grabs restored from the ledger (0 for a new packet)
ARGV[13] password match: EXACT | PINYIN | a percentage, or "" without a password
ARGV[14] how the password sounds (units split by spaces, readings by |), or ""
ARGV[15] lim: the activity's most grabs per user, or 0 outside any activity
ARGV[16] packetId
then ARGV[17 .. 16+n] the untaken shares in fen (handed out in this order),
then 3 values per restored grab, in grab order: user, amount (fen), grab time (ms),
then the recipients of an EXCLUSIVE packet to the end.

A rebuilt packet (g > 0) starts with its restored grabs already taken, as grabs 1..g, so each of
those users is answered ALREADY_GRABBED with the amount the ledger paid, and the shares pushed are
only what the ledger has not paid (the caller splits that remainder; with every share paid, what is
left is the packet's spare, as recover.lua leaves it). In an activity each restored
grab also counts for its user (once: a user's entry lists packet ids), and the activity hash is
kept at least until this packet's keys expire. Its field # (counts whole) is activity.lua's alone:
arming into a hash that vanished since the caller restored it must not mark the few grabs it
writes as the whole counts.

The password fields (pwm, pwr) are read by the caller, which matches a grab's phrase before
grab.lua runs; grab.lua itself only compares keys.

Replies:
  {1}                              armed now
  {0, total, count, createdAt}     the meta already exists (armed before, closed, tombstoned or
                                   held): nothing changed; the fields let the caller check that
                                   the state is this packet's and not an older packet's of the
                                   same id
  {-1}                             now >= expireAt: refused, nothing written

Atomic because a script runs alone on the shard: a grab sees either no packet or all of it
(meta, every share, every restored grab, every recipient); two racing arms write once.
--]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  local found = redis.call('HMGET', KEYS[1], 'total', 'count', 'createdAt')
  return {0, found[1] or '', found[2] or '', found[3] or ''}
end
if tonumber(ARGV[8]) >= tonumber(ARGV[3]) then
  return {-1}
end
local ttlAt = ARGV[7]
local n = tonumber(ARGV[11])
local g = tonumber(ARGV[12])
local firstShare = 17
local firstGrab = firstShare + n
local firstRecipient = firstGrab + 3 * g

local takenAmount = 0
local emptiedAt = ''
for i = 0, g - 1 do
  local user = ARGV[firstGrab + 3 * i]
  local amount = ARGV[firstGrab + 3 * i + 1]
  local at = ARGV[firstGrab + 3 * i + 2]
  redis.call('HSET', KEYS[4], user, amount .. '|' .. at .. '|' .. (i + 1))
  takenAmount = takenAmount + tonumber(amount)
  emptiedAt = at
end
if g > 0 then
  redis.call('PEXPIREAT', KEYS[4], ttlAt)
end
if g < tonumber(ARGV[2]) then
  emptiedAt = ''
end

local lim = tonumber(ARGV[15])
if lim > 0 then
  local packetId = ARGV[16]
  for i = 0, g - 1 do
    local user = ARGV[firstGrab + 3 * i]
    local mine = redis.call('HGET', KEYS[5], user)
    if not mine then
      redis.call('HSET', KEYS[5], user, packetId)
    elseif not string.find(',' .. mine .. ',', ',' .. packetId .. ',', 1, true) then
      redis.call('HSET', KEYS[5], user, mine .. ',' .. packetId)
    end
  end
  local left = redis.call('PTTL', KEYS[5])
  if left < 0 or tonumber(ARGV[8]) + left < tonumber(ttlAt) then
    redis.call('PEXPIREAT', KEYS[5], ttlAt)
  end
end

redis.call('HSET', KEYS[1],
  'total', ARGV[1], 'count', ARGV[2], 'taken', g, 'takenAmount', string.format('%d', takenAmount),
  'status', 'A', 'expireAt', ARGV[3], 'createdAt', ARGV[4], 'emptiedAt', emptiedAt,
  'pw', ARGV[5], 'type', ARGV[6], 'ttlAt', ttlAt, 'mode', ARGV[9], 'cap', ARGV[10],
  'pwm', ARGV[13], 'pwr', ARGV[14])
if lim > 0 then
  redis.call('HSET', KEYS[1], 'lim', ARGV[15])
end
-- Every share paid for less than the total: a receipt's grab smaller than the last share left the
-- difference over (recover.lua's spare); it stays the packet's until the close refunds it.
if ARGV[9] == 'P' and n == 0 and g == tonumber(ARGV[2]) and takenAmount < tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'spare', string.format('%d', tonumber(ARGV[1]) - takenAmount))
end
redis.call('PEXPIREAT', KEYS[1], ttlAt)

-- Lua's unpack is limited to a few thousand values: push in chunks.
local chunk = 1000
local first = firstShare
local last = firstGrab - 1
while first <= last do
  local upto = math.min(first + chunk - 1, last)
  redis.call('RPUSH', KEYS[2], unpack(ARGV, first, upto))
  first = upto + 1
end
if n > 0 then
  redis.call('PEXPIREAT', KEYS[2], ttlAt)
end

if ARGV[6] == 'E' then
  first = firstRecipient
  last = #ARGV
  while first <= last do
    local upto = math.min(first + chunk - 1, last)
    redis.call('SADD', KEYS[3], unpack(ARGV, first, upto))
    first = upto + 1
  end
  redis.call('PEXPIREAT', KEYS[3], ttlAt)
end
return {1}
