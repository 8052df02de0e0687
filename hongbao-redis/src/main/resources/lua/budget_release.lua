--[[
budget_release.lua: undoes a reservation (a synchronous issue failed), so the tradeNo may be tried
again and its cost is free for others.

KEYS[1] budget key  hb:rwb:{<campaign>:<k>}
KEYS[2] trades      hb:rwb:{<campaign>:<k>}:t
ARGV[1] tradeNo

Replies (integer): 1 released; 0 there was no such reservation (released before).

Atomic so a release happens once: used and the trade record move together.
--]]
local prior = redis.call('HGET', KEYS[2], ARGV[1])
if not prior then return 0 end
local cost = tonumber(string.match(prior, '^[^|]*|([^|]*)|'))
-- A coupon or item reserves nothing, and Lua would send -0 as "-0", which HINCRBY refuses.
if cost ~= 0 then
  redis.call('HINCRBY', KEYS[1], 'used', -cost)
end
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
