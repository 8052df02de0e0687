--[[
trade_claim.lua: claims a tradeNo for a campaign and one request of it, across campaigns (the
contract's global idempotency key; each campaign's budget keys record only its own trades, and a
trade record goes when a failed synchronous send is undone, so the claim keeps the request too).

KEYS[1] claims bucket  hb:rwn:{<bucket>}   hash: tradeNo -> campaignId|digest
ARGV[1] tradeNo  ARGV[2] campaignId  ARGV[3] the request's digest (a prefix of it)

Replies: 'CLAIMED' (nobody held it: now this campaign does, for this request), 'HELD' (this
campaign held it already, for this request, or by a claim made before digests were kept), 'OTHER'
(another campaign holds it), 'ANOTHER' (this campaign holds it for a request with another body).

Atomic so two campaigns racing for one tradeNo cannot both claim it.
--]]
local held = redis.call('HGET', KEYS[1], ARGV[1])
if not held then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|' .. ARGV[3])
  return 'CLAIMED'
end
local campaign, digest = string.match(held, '^([^|]*)|?(.*)$')
if campaign ~= ARGV[2] then return 'OTHER' end
if digest ~= '' and digest ~= ARGV[3] then return 'ANOTHER' end
return 'HELD'
