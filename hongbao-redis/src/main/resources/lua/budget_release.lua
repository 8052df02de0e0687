--[[
budget_release.lua: undoes a reservation (a synchronous issue failed), so the tradeNo may be tried
again and its cost is free for others.

KEYS[1] budget key  hb:rwb:{<campaign>:<k>}
KEYS[2] trades      hb:rwb:{<campaign>:<k>}:t
ARGV[1] tradeNo

Replies (integer): 1 released; 0 there was no such reservation (released before); -1 the key was
closed (budget_close.lua): nothing changed.

A closed key's reservations are the sum the campaign's return was computed from, so a release
after the close would free a cost that is neither spent nor returned: it would stay in the escrow
unseen. The reservation is kept instead, and the reconciler reports its reward as accepted and
neither credited nor failed.

Atomic so a release happens once: used and the trade record move together.
--]]
local prior = redis.call('HGET', KEYS[2], ARGV[1])
if not prior then return 0 end
if redis.call('HEXISTS', KEYS[1], 'closed') == 1 then return -1 end
local cost = tonumber(string.match(prior, '^[^|]*|([^|]*)|'))
-- A coupon or item reserves nothing, and Lua would send -0 as "-0", which HINCRBY refuses.
if cost ~= 0 then
  redis.call('HINCRBY', KEYS[1], 'used', -cost)
end
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
