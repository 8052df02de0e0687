--[[
rain_close.lua: closes an open slot to taps for a restore after Redis restarted (its state may be
older than what it acknowledged: wins lost, their prizes back in the sub-pools).

KEYS[1] hb:cp:{cp:<campaign>:<j>}:armed  string: '1' open, 'R:<nonce>' being restored
ARGV[1] a nonce of this restore

Replies: the slot's marker after the call: 'R:<nonce>' if it closed it now; the marker it found
otherwise (another restore's 'R:…'); false (nil) when the slot is not armed at all.

Atomic compare-and-set: an open slot is closed by exactly one restore; the others find its marker
and seal it after their own (idempotent) restore.
--]]
local marker = redis.call('GET', KEYS[1])
if marker == '1' then
  marker = 'R:' .. ARGV[1]
  redis.call('SET', KEYS[1], marker)
end
return marker
