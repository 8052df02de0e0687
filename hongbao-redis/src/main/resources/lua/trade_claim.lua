--[[
trade_claim.lua: claims a tradeNo for a campaign and one request of it, across campaigns (the
contract's global idempotency key; each campaign's budget keys record only its own trades, and a
trade record goes when a failed synchronous send is undone, so the claim keeps the request too).

KEYS[1] claims bucket   hb:rwn:{<bucket>}     hash: tradeNo -> campaignId
KEYS[2] their digests   hb:rwn:{<bucket>}:d   hash: tradeNo -> the request's digest (a prefix)
ARGV[1] tradeNo  ARGV[2] campaignId  ARGV[3] the request's digest (a prefix of it)

Replies: 'CLAIMED' (nobody held it: now this campaign does, for this request), 'HELD' (this
campaign held it already, for this request; a claim without a digest, made by an earlier version,
takes this request's), 'OTHER' (another campaign holds it), 'ANOTHER' (this campaign holds it for a
request with another body).

Atomic so two campaigns racing for one tradeNo cannot both claim it. The campaign stays alone in
KEYS[1], as earlier versions wrote and read it, so that they and this one can run side by side.
--]]
local held = redis.call('HGET', KEYS[1], ARGV[1])
if not held then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
  return 'CLAIMED'
end
if held ~= ARGV[2] then return 'OTHER' end
local digest = redis.call('HGET', KEYS[2], ARGV[1])
if not digest then
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
  return 'HELD'
end
if digest ~= ARGV[3] then return 'ANOTHER' end
return 'HELD'
