--[[
rain_restore.lua: puts back one win the reward book holds that this slot's sub-pool may have lost:
takes its prize out of the sub-pool again and records the win, unless the slot recorded it.

KEYS[1] hb:cp:{cp:<campaign>:<t>}:r<round>  hash: line -> prizes left
KEYS[2] hb:cp:{cp:<campaign>:<t>}:won       hash: tradeNo -> "round|line|user"
ARGV[1] tradeNo  ARGV[2] round  ARGV[3] user  ARGV[4..] the lines the prize may be of (the lines of
the round with the prize's type and amount, which are interchangeable), in order

Replies: line (>= 0) taken and recorded now; -1 none of those lines has a prize left here;
-2 this slot had the win recorded (nothing changed).

Atomic because the take and the record go together, and the record is checked first: restoring
the same win twice (two instances, a retry) takes its prize once.
--]]
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return -2 end
for i = 4, #ARGV do
  local line = ARGV[i]
  if tonumber(redis.call('HGET', KEYS[1], line) or '0') > 0 then
    redis.call('HINCRBY', KEYS[1], line, -1)
    redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. '|' .. line .. '|' .. ARGV[3])
    return tonumber(line)
  end
end
return -1
