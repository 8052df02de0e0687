--[[
rain_release.lua: gives back a win reserved in the home slot that the tail found no prize for.

KEYS[1] hb:cp:{cp:<campaign>:<j>}:wins  hash: user -> wins (and reserved wins)
ARGV[1] user

Replies: the user's count after the release.

Atomic so the count never goes below zero; the win number handed out with the reservation is
not given back (a tradeNo is never used twice).
--]]
local wins = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if wins <= 0 then return 0 end
return redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
