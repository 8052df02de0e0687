--[[
rain_count.lua: raises a user's win counter and last win number in the home slot to what the
recorded wins show, after the slot was restored.

KEYS[1] hb:cp:{cp:<campaign>:<j>}:wins  hash: user -> wins (and reserved wins)
KEYS[2] hb:cp:{cp:<campaign>:<j>}:seq   hash: user -> the last win number handed out
ARGV[1] user  ARGV[2] wins recorded  ARGV[3] the highest win number recorded

Replies: 1.

Only ever raises: a counter above the recorded wins holds a reservation in flight (or one a crash
left), and lowering it could let the user past maxWinsPerUser; a win number is never handed out
twice. Atomic so a tap of the user in between sees either value, both safe.
--]]
local wins = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if wins < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
local seq = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if seq < tonumber(ARGV[3]) then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) end
return 1
