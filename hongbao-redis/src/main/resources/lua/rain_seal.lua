--[[
rain_seal.lua: opens a restored slot to taps.

KEYS[1] hb:cp:{cp:<campaign>:<j>}:armed  string: 'R:<nonce>' armed and being restored, '1' open
ARGV[1] the marker the restore found when it began (what rain_arm.lua replied)

Replies: 1 open (now or before); 0 the marker changed: Redis lost the slot again meanwhile, and
the next tap finds it LOST and the restore runs again.

Atomic compare-and-set, so that a slot lost and re-armed by another arming while this restore ran
is never opened before its own restore.
--]]
local marker = redis.call('GET', KEYS[1])
if marker == '1' then return 1 end
if marker and marker == ARGV[1] then
  redis.call('SET', KEYS[1], '1')
  return 1
end
return 0
