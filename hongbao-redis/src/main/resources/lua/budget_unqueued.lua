--[[
budget_unqueued.lua: marks an asynchronous trade whose send no queue took (every queue failed it
while too many events were held): its reservation stays, since a send that timed out may have
landed all the same, and the campaign's closer sends the event again unless the reward book has it.

KEYS[1] trades  hb:rwb:{<campaign>:<k>}:t  hash: tradeNo -> digest|cost|acceptedAtMillis|token…
                                            (|unqueued appended here, once)
ARGV[1] tradeNo

Replies (integer): 1 marked (or marked before); 0 there is no such trade.
--]]
local prior = redis.call('HGET', KEYS[1], ARGV[1])
if not prior then return 0 end
if not string.find(prior, '|unqueued', 1, true) then
  redis.call('HSET', KEYS[1], ARGV[1], prior .. '|unqueued')
end
return 1
