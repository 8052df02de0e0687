--[[
trade_claim.lua: claims a tradeNo for a campaign, across campaigns (the contract's global
idempotency key; each campaign's budget keys record only its own trades).

KEYS[1] claims bucket  hb:rwn:{<bucket>}   hash: tradeNo -> campaignId
ARGV[1] tradeNo  ARGV[2] campaignId

Replies: 'CLAIMED' (nobody held it: now this campaign does), 'HELD' (this campaign held it
already), 'OTHER' (another campaign holds it).

Atomic so two campaigns racing for one tradeNo cannot both claim it.
--]]
local held = redis.call('HGET', KEYS[1], ARGV[1])
if not held then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  return 'CLAIMED'
end
if held == ARGV[2] then return 'HELD' end
return 'OTHER'
