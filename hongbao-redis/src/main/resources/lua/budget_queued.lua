--[[
budget_queued.lua: marks an asynchronous trade whose event a replay has put on a queue, so that the
first send, should it fail after all, leaves the reservation to that event's credit.

KEYS[1] trades  hb:rwb:{<campaign>:<k>}:t  hash: tradeNo -> digest|cost|acceptedAtMillis|token
                                            (|queued appended here, once)
ARGV[1] tradeNo

Replies (integer): 1 marked (or marked before); 0 there is no reservation: the first send released
it before the replay's event was queued, and the replay reserves again.

Atomic with budget_release.lua's 'unless-queued': of a failing first send's release and a replay's
mark, whichever runs first decides, and a reservation never outlives both senders with no event
behind it.
--]]
local prior = redis.call('HGET', KEYS[1], ARGV[1])
if not prior then return 0 end
if string.sub(prior, -7) ~= '|queued' and string.sub(prior, -5) ~= '|sync' then
  redis.call('HSET', KEYS[1], ARGV[1], prior .. '|queued')
end
return 1
