--[[
arm.lua: put a funded, pre-split packet into the store.

KEYS[1] meta hash     hb:{sNNN}:p:<id>
KEYS[2] shares list   hb:{sNNN}:p:<id>:shares
KEYS[3] eligible set  hb:{sNNN}:p:<id>:elig
ARGV[1] total (fen)          ARGV[2] count
ARGV[3] expireAt (ms)        ARGV[4] createdAt (ms)
ARGV[5] password key or ""   ARGV[6] type: L | F | E
ARGV[7] ttlAt (ms): when every key of the packet expires (expireAt + grace)
ARGV[8] now (ms)
ARGV[9] split mode: P (pre-split: the shares follow) | G (cut each share at grab time)
ARGV[10] cap per share in fen for mode G (0: none)
ARGV[11] n = number of shares (0 in mode G), then ARGV[12 .. 11+n] the shares in fen (handed out
        in this order), then ARGV[12+n ..] the recipients of an EXCLUSIVE packet

Replies (integer):
   1  armed now
   0  the meta already exists (armed before, or closed/tombstoned): nothing changed
  -1  now >= expireAt: refused, nothing written

Atomic because a script runs alone on the shard: a grab sees either no packet or all of it
(meta, every share, every recipient); two racing arms write once.
--]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
if tonumber(ARGV[8]) >= tonumber(ARGV[3]) then
  return -1
end
local ttlAt = ARGV[7]
local n = tonumber(ARGV[11])
redis.call('HSET', KEYS[1],
  'total', ARGV[1], 'count', ARGV[2], 'taken', 0, 'takenAmount', 0, 'status', 'A',
  'expireAt', ARGV[3], 'createdAt', ARGV[4], 'emptiedAt', '', 'pw', ARGV[5], 'type', ARGV[6],
  'ttlAt', ttlAt, 'mode', ARGV[9], 'cap', ARGV[10])
redis.call('PEXPIREAT', KEYS[1], ttlAt)

-- Lua's unpack is limited to a few thousand values: push in chunks.
local chunk = 1000
local first = 12
local last = 11 + n
while first <= last do
  local upto = math.min(first + chunk - 1, last)
  redis.call('RPUSH', KEYS[2], unpack(ARGV, first, upto))
  first = upto + 1
end
if n > 0 then
  redis.call('PEXPIREAT', KEYS[2], ttlAt)
end

if ARGV[6] == 'E' then
  first = 12 + n
  last = #ARGV
  while first <= last do
    local upto = math.min(first + chunk - 1, last)
    redis.call('SADD', KEYS[3], unpack(ARGV, first, upto))
    first = upto + 1
  end
  redis.call('PEXPIREAT', KEYS[3], ttlAt)
end
return 1
