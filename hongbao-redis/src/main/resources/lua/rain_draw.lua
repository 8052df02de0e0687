--[[
rain_draw.lua: the tail of a tap: takes a prize from a sub-pool other than the user's home for a
win already reserved in the home slot.

KEYS[1] hb:cp:{cp:<campaign>:<t>}:r<round>  hash: line -> prizes left
KEYS[2] hb:cp:{cp:<campaign>:<t>}:won       hash: tradeNo -> "round|line|user"
KEYS[3] hb:cp:{cp:<campaign>:<t>}:live:<round>:<second>  hash: w -> wins in that second (15 s after its last write)
KEYS[4] hb:cp:{cp:<campaign>:<t>}:armed     string: '1' once the slot is armed and restored
ARGV[1] u in [0, 1)  ARGV[2] prize lines  ARGV[3] tradeNo  ARGV[4] round  ARGV[5] user

Replies: line (>= 0) taken and recorded; -1 this sub-pool is dry; -2 the slot is not open (lost,
or being restored): nothing was taken.

Atomic because the take and the record of the win happen together: a prize is taken once and
every taken prize has its win recorded.
--]]
if redis.call('GET', KEYS[4]) ~= '1' then return -2 end
local lines = tonumber(ARGV[2])
local left = {}
local total = 0
for line = 0, lines - 1 do
  local n = tonumber(redis.call('HGET', KEYS[1], tostring(line)) or '0')
  left[line] = n
  total = total + n
end
if total == 0 then return -1 end
local target = math.floor(tonumber(ARGV[1]) * total)
local line = 0
while target >= left[line] do
  target = target - left[line]
  line = line + 1
end
redis.call('HINCRBY', KEYS[1], tostring(line), -1)
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4] .. '|' .. line .. '|' .. ARGV[5])
redis.call('HINCRBY', KEYS[3], 'w', 1)
-- 15 s after the last win counted in it, by Redis's clock: the key's second is the service's
-- clock's, which a test may hold still for longer than that.
redis.call('PEXPIRE', KEYS[3], 15000)
return line
