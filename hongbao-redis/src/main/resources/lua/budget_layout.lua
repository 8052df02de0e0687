--[[
budget_layout.lua: records how a campaign's budget is laid out over its keys, once per version.

KEYS[1] hb:rw:campaigns   hash: campaignId -> 'budget|keys' (version 1) or 'budget|keys|version'
ARGV[1] campaign id   ARGV[2] budget (fen)   ARGV[3] keys (used only when the campaign has none)
ARGV[4] the budget's version

Replies: the layout held after the call (a string). A newer version replaces an older one with
the new budget over the same number of keys (the keys' hashing of tradeNos must not change); a
call with an older or the same version changes nothing.

Atomic so that two edits armed out of order can never leave an older budget over a newer one.
--]]
local held = redis.call('HGET', KEYS[1], ARGV[1])
local version = tonumber(ARGV[4])
local function layout(keys)
  if version == 1 then return ARGV[2] .. '|' .. keys end
  return ARGV[2] .. '|' .. keys .. '|' .. ARGV[4]
end
if not held then
  redis.call('HSET', KEYS[1], ARGV[1], layout(ARGV[3]))
  return redis.call('HGET', KEYS[1], ARGV[1])
end
local parts = {}
for part in string.gmatch(held, '[^|]+') do table.insert(parts, part) end
local heldVersion = tonumber(parts[3] or '1')
if heldVersion < version then
  redis.call('HSET', KEYS[1], ARGV[1], layout(parts[2]))
end
return redis.call('HGET', KEYS[1], ARGV[1])
