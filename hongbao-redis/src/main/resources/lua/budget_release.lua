--[[
budget_release.lua: undoes a reservation (a synchronous issue failed, or an asynchronous send could
not queue its event), so the tradeNo may be tried again and its cost is free for others.

KEYS[1] budget key  hb:rwb:{<campaign>:<k>}
KEYS[2] trades      hb:rwb:{<campaign>:<k>}:t
ARGV[1] tradeNo  ARGV[2] 'unless-replayed' (an asynchronous send whose claim failed), or 'always'

Replies (integer): 1 released; 0 there was no such reservation (released before); 2 kept: a replay
found it (budget_reserve.lua marked it), so its event may be on a queue, or about to be; 3 kept:
'unless-replayed' on a closed key (budget_close.lua), whose closing counted the reservation out of
the campaign's return. Its send was answered as an outage (a rain's win: its tap, 503): released,
its cash would stay in the escrow with no trade and, for a win, nothing to name it; kept, a retry
of the same request queues it, and the reconciler names it as accepted and never credited
meanwhile. An 'always' release (a synchronous issue that failed, a 409) was answered as undone,
and is released on a closed key too.

Atomic so a release happens once: used and the trade record move together.
--]]
local prior = redis.call('HGET', KEYS[2], ARGV[1])
if not prior then return 0 end
if ARGV[2] == 'unless-replayed' and string.find(prior, '|replayed', 1, true) then return 2 end
if ARGV[2] == 'unless-replayed' and redis.call('HEXISTS', KEYS[1], 'closed') == 1 then return 3 end
local cost = tonumber(string.match(prior, '^[^|]*|([^|]*)|'))
-- A coupon or item reserves nothing, and Lua would send -0 as "-0", which HINCRBY refuses.
if cost ~= 0 then
  redis.call('HINCRBY', KEYS[1], 'used', -cost)
end
redis.call('HDEL', KEYS[2], ARGV[1])
return 1
