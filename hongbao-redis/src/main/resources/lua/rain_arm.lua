--[[
rain_arm.lua: writes one home slot's share of every round of a campaign, once.

KEYS[1]      hb:cp:{cp:<campaign>:<j>}:armed     string: set when this slot is armed
KEYS[2..R+1] hb:cp:{cp:<campaign>:<j>}:r<round>  hash: line index -> prizes left, 't' -> taps
ARGV[1] R (rounds)   then per round: L (lines), then L counts (this sub-pool's share of each line)

Replies: 1 armed now, 0 armed before (nothing changed).

Atomic, so a slot is either fully armed or not at all: arming again (another instance, a retry
after a failure between the database commit and the arming) never adds a prize twice.
--]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local at = 2
for r = 1, tonumber(ARGV[1]) do
  local lines = tonumber(ARGV[at])
  at = at + 1
  for line = 0, lines - 1 do
    redis.call('HSET', KEYS[r + 1], tostring(line), ARGV[at])
    at = at + 1
  end
  redis.call('HSETNX', KEYS[r + 1], 't', '0')
end
redis.call('SET', KEYS[1], '1')
return 1
