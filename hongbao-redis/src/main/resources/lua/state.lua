--[[
state.lua: one consistent snapshot of a packet.

KEYS[1] meta hash    hb:{sNNN}:p:<id>
KEYS[2] shares list  hb:{sNNN}:p:<id>:shares
KEYS[3] grabs hash   hb:{sNNN}:p:<id>:grabs

Replies:
  {}                                   no meta: the store has nothing of this packet
  {meta, grabs, available}             meta = HGETALL of the meta hash (field, value, ...),
                                       grabs = HGETALL of the grabs hash (user, "amount|ms|seq"),
                                       available = the sum of the shares still in the list,
                                       summed here rather than derived from meta so that a
                                       reconciler checks the list against the counters
                                       (a packet split at grab time has no list: total - taken)

Atomic because a script runs alone on the shard: no grab or close lands between the reads.
--]]
local meta = redis.call('HGETALL', KEYS[1])
if #meta == 0 then
  return {}
end
local grabs = redis.call('HGETALL', KEYS[3])
local available = 0
for _, share in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do
  available = available + tonumber(share)
end
-- A packet split at grab time has no list: what is left is what was not taken, until it closes.
local fields = {}
for i = 1, #meta, 2 do
  fields[meta[i]] = meta[i + 1]
end
if fields['mode'] == 'G' and fields['status'] ~= 'C' then
  available = tonumber(fields['total']) - tonumber(fields['takenAmount'])
elseif fields['spare'] and fields['status'] ~= 'C' then
  -- fen a recovered grab left over when it took the last share (see recover.lua)
  available = available + tonumber(fields['spare'])
end
return {meta, grabs, available}
