--[[
trade_claim.lua: claims a tradeNo for a campaign, across campaigns (the contract's global
idempotency key; each campaign's budget keys record only its own trades), and checks the request
against the digest the claim keeps. A synchronous send's claim keeps its digest: its trade record
goes when the send is undone, and the digest then tells another body apart. A queued send's trade
record stays and does that itself, so its claim writes no digest.

KEYS[1] claims bucket   hb:rwn:{<bucket>}     hash: tradeNo -> campaignId
KEYS[2] their digests   hb:rwn:{<bucket>}:d   hash: tradeNo -> a synchronous request's digest (prefix)
ARGV[1] tradeNo  ARGV[2] campaignId  ARGV[3] the request's digest (a prefix)
ARGV[4] 'keep' to keep the digest (a synchronous send), else ''

Replies: 'CLAIMED' (nobody held it: now this campaign does), 'HELD' (this campaign held it
already; a claim without a digest takes one to keep), 'OTHER' (another campaign holds it),
'ANOTHER' (this campaign holds it for a request with another digest).

Atomic so two campaigns racing for one tradeNo cannot both claim it. The campaign stays alone in
KEYS[1], as earlier versions wrote and read it, so that they and this one can run side by side.
--]]
local keep = ARGV[4] == 'keep'
local held = redis.call('HGET', KEYS[1], ARGV[1])
if not held then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  if keep then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) end
  return 'CLAIMED'
end
if held ~= ARGV[2] then return 'OTHER' end
local digest = redis.call('HGET', KEYS[2], ARGV[1])
if not digest then
  if keep then redis.call('HSET', KEYS[2], ARGV[1], ARGV[3]) end
  return 'HELD'
end
if digest ~= ARGV[3] then return 'ANOTHER' end
return 'HELD'
