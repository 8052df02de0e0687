--[[
trade_unclaim.lua: gives up a campaign's claim on a tradeNo (a send its campaign did not accept),
and only that campaign's.

KEYS[1] claims bucket  hb:rwn:{<bucket>}   hash: tradeNo -> campaignId
ARGV[1] tradeNo  ARGV[2] campaignId

Reply (integer): 1 if the claim was this campaign's and is gone, else 0.

Atomic so a claim another campaign made in between is never removed.
--]]
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
return redis.call('HDEL', KEYS[1], ARGV[1])
