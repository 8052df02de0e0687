--[[
rain_tap.lua: one tap of a red-packet rain, in the user's home slot.

KEYS[1] hb:cp:{cp:<campaign>:<j>}:tl:<user>     list: the times (ms) of the user's last taps let through,
                                             newest first (expires 2 s after the newest)
KEYS[2] hb:cp:{cp:<campaign>:<j>}:wins          hash: user -> wins (and reserved wins) so far
KEYS[3] hb:cp:{cp:<campaign>:<j>}:seq           hash: user -> the last win number handed out
KEYS[4] hb:cp:{cp:<campaign>:<j>}:r<round>      hash: line -> prizes left, 't' -> taps of the round
KEYS[5] hb:cp:{cp:<campaign>:<j>}:won           hash: tradeNo -> "round|line|user"
KEYS[6] hb:cp:{cp:<campaign>:<j>}:live:<round>:<second>  hash: t -> taps, w -> wins in that second
                                             (expires 15 s after its last write; the live view reads it)
KEYS[7] hb:cp:{cp:<campaign>:<j>}:armed         string: '1' once the slot is armed and restored
KEYS[8] hb:cp:{cp:<campaign>:<j>}:held          hash: tradeNo -> '1' for each win reserved for the tail
ARGV[1] user  ARGV[2] taps allowed per second  ARGV[3] round running (1/0)  ARGV[4] maxWinsPerUser
ARGV[5] draw (1/0)  ARGV[6] u in [0, 1)  ARGV[7] prize lines of the round  ARGV[8] tradeNo prefix
ARGV[9] round number  ARGV[10] now, in epoch milliseconds

Replies (one string: the verdict, then its numbers, separated by spaces):
  'RATE'                 the user's taps let through in the last second already reach the limit
                         (the tap is counted nowhere)
  'IDLE'                 no round runs
  'LOST'                 the slot is not open (Redis lost it, or it is being restored): nothing
                         was counted, in the round or against the limit; the caller restores the
                         pools and taps again
  'LIMIT'                the user has maxWinsPerUser wins
  'MISS'                 no draw this tap
  'WON line n'           a prize of `line` from this sub-pool; the user's n-th win, recorded
  'RESERVED n'           this sub-pool is dry: a win is reserved under n for the tail to find,
                         and the reservation is marked held (rain_settle.lua)
A string, not an array: Redis 6.2 writes a script's array reply with a system call of its own
(see grab.lua), and taps share a connection.

Atomic because the limit check, the draw and the win count change together in one slot: however
a user's taps race, wins (plus reservations) never pass maxWinsPerUser, and a prize is taken once.
--]]
local user = ARGV[1]
-- The limit holds over any second, not per clock second (where a burst across the turn of a
-- second would pass twice the limit): a tap passes when the limit-th last tap let through is at
-- least 1000 ms old. Only the last `limit` times are kept.
local limit = tonumber(ARGV[2])
local now = tonumber(ARGV[10])
local oldest = redis.call('LINDEX', KEYS[1], limit - 1)
if oldest and now - tonumber(oldest) < 1000 then return 'RATE' end
local function let_through()
  redis.call('LPUSH', KEYS[1], ARGV[10])
  redis.call('LTRIM', KEYS[1], 0, limit - 1)
  redis.call('PEXPIRE', KEYS[1], 2000)
end
if ARGV[3] ~= '1' then
  let_through()
  return 'IDLE'
end
-- A LOST tap is not let through: the caller restores the slot and taps again, counted then.
if redis.call('GET', KEYS[7]) ~= '1' then return 'LOST' end
let_through()
redis.call('HINCRBY', KEYS[4], 't', 1)
redis.call('HINCRBY', KEYS[6], 't', 1)
-- 15 s after the last tap counted in it, by Redis's clock: the key's second is the service's
-- clock's, which a test may hold still for longer than that.
redis.call('PEXPIRE', KEYS[6], 15000)
local wins = tonumber(redis.call('HGET', KEYS[2], user) or '0')
if wins >= tonumber(ARGV[4]) then return 'LIMIT' end
if ARGV[5] ~= '1' then return 'MISS' end
local lines = tonumber(ARGV[7])
local left = {}
local total = 0
for line = 0, lines - 1 do
  local n = tonumber(redis.call('HGET', KEYS[4], tostring(line)) or '0')
  left[line] = n
  total = total + n
end
redis.call('HINCRBY', KEYS[2], user, 1)
local seq = redis.call('HINCRBY', KEYS[3], user, 1)
if total == 0 then
  -- Written with the count: a slot that loses the count (a failover, an older state after a
  -- restart) loses the mark with it, which is how the tail tells after a restore.
  redis.call('HSET', KEYS[8], ARGV[8] .. seq, '1')
  return 'RESERVED ' .. string.format('%d', seq)
end
local target = math.floor(tonumber(ARGV[6]) * total)
local line = 0
while target >= left[line] do
  target = target - left[line]
  line = line + 1
end
redis.call('HINCRBY', KEYS[4], tostring(line), -1)
redis.call('HSET', KEYS[5], ARGV[8] .. seq, ARGV[9] .. '|' .. line .. '|' .. user)
redis.call('HINCRBY', KEYS[6], 'w', 1)
return 'WON ' .. string.format('%d', line) .. ' ' .. string.format('%d', seq)
