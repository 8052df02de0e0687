--[[
rain_settle.lua: a tail found the prize for the win it reserved in the user's home slot: the
reservation is now a win, and the slot's count must hold it.

KEYS[1] hb:cp:{cp:<campaign>:<j>}:wins   hash: user -> wins (and reserved wins)
KEYS[2] hb:cp:{cp:<campaign>:<j>}:seq    hash: user -> the last win number handed out
KEYS[3] hb:cp:{cp:<campaign>:<j>}:held   hash: tradeNo -> '1' for each win reserved for the tail
ARGV[1] user  ARGV[2] the reservation's win number n  ARGV[3] its tradeNo

Replies: 1 the slot still held the reservation (its mark is removed, the count already holds the
win); 0 the slot had lost it, and the win is counted now.

Why: rain_tap.lua counts a reservation and marks it held in one script. A slot rebuilt while the
tail ran (Redis lost it, or came back with an older state) raised its counter from the wins
recorded when the restore read them (rain_count.lua), which hold no reservation and may not yet
hold this win: uncounted, it would let the user win once more than maxWinsPerUser allows. The
mark is lost with the count, so its absence says the count is gone too. When the restore did read
this win, counting it again leaves the counter one too high (the user may win one prize fewer,
never one more). Correct whether or not the slot is open: a count written before a restore's
rain_count.lua is only ever raised by it.
--]]
if redis.call('HDEL', KEYS[3], ARGV[3]) == 1 then return 1 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
-- The rebuilt last number may be below n: no later tap may be handed n again.
local seq = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if seq < tonumber(ARGV[2]) then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return 0
