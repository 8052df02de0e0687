--[[
rain_release.lua: gives back a win reserved in the home slot that the tail found no prize for.

KEYS[1] hb:cp:{cp:<campaign>:<j>}:wins  hash: user -> wins (and reserved wins)
KEYS[2] hb:cp:{cp:<campaign>:<j>}:seq   hash: user -> the last win number handed out
KEYS[3] hb:cp:{cp:<campaign>:<j>}:held  hash: tradeNo -> '1' for each win reserved for the tail
ARGV[1] user  ARGV[2] the reservation's win number n  ARGV[3] its tradeNo

Replies: the user's count after the release.

Atomic so the count never goes below zero. The win number goes back too when it is still the
user's last one, so the user's tradeNos count wins without a gap; when another tap of the same
user took a later number meanwhile, n stays skipped (a tradeNo is never used twice). Nothing was
issued under n: the tail found no prize.
--]]
-- The mark is written with the count: without it, the slot was rebuilt since the reservation (a
-- restore raised the count from the recorded wins, which hold no reservation), and taking one
-- off would take off a win. Nothing to give back then.
if redis.call('HDEL', KEYS[3], ARGV[3]) == 0 then
  return tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
end
local wins = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if redis.call('HGET', KEYS[2], ARGV[1]) == ARGV[2] then
  redis.call('HINCRBY', KEYS[2], ARGV[1], -1)
end
if wins <= 0 then return 0 end
return redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
