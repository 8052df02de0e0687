--[[
rain_rehold.lua: after a restore in the middle of a tail, before it draws again: makes sure the
home slot still counts the win the tail reserved, and takes it again if the slot lost it.

KEYS[1] hb:cp:{cp:<campaign>:<j>}:wins   hash: user -> wins (and reserved wins)
KEYS[2] hb:cp:{cp:<campaign>:<j>}:seq    hash: user -> the last win number handed out
KEYS[3] hb:cp:{cp:<campaign>:<j>}:held   hash: tradeNo -> '1' for each win reserved for the tail
KEYS[4] hb:cp:{cp:<campaign>:<j>}:armed  string: '1' once the slot is armed and restored
ARGV[1] user  ARGV[2] the reservation's win number n  ARGV[3] its tradeNo  ARGV[4] maxWinsPerUser

Replies: 'HELD' the slot counts the reservation (it kept it, or holds it again now); 'LIMIT' the
slot lost it and the user has maxWinsPerUser wins by now; 'TAKEN' the slot lost it and its last
win number is n or later (n may have been handed out again); 'LOST' the slot is not open. After
LIMIT and TAKEN nothing changed and the tail draws nothing.

Why: a slot rebuilt since the reservation (its mark is gone with its count, see rain_settle.lua)
counts only the recorded wins, and its last win number is the highest recorded: until the tail
settles, another tap of the user could win past the limit, or be handed n, a tradeNo the tail is
about to win. Atomic so the limit check and the count change together, as in rain_tap.lua.
--]]
if redis.call('GET', KEYS[4]) ~= '1' then return 'LOST' end
if redis.call('HEXISTS', KEYS[3], ARGV[3]) == 1 then return 'HELD' end
local wins = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if wins >= tonumber(ARGV[4]) then return 'LIMIT' end
-- The rebuilt last number is the highest recorded; at n or past it, a tap of the user since the
-- rebuild may have been handed n: the tail must not win under it.
local seq = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if seq >= tonumber(ARGV[2]) then return 'TAKEN' end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[3], '1')
return 'HELD'
