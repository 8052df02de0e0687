--[[
oldest.lua: the payout task that was grabbed longest ago among a group of payout streams' heads.

KEYS[1..n] payout streams  hb:{sNNN}:payouts, all on one server (and, on a cluster, one slot)
No ARGV.

Reply: {stream, entry id, field, value, ...}: the first entry of one stream, the one whose grab time
(field t) is the earliest among the streams' first entries; {} when every stream is empty. A stream
holds exactly the tasks not yet acknowledged (ack.lua keeps it so), in the order they were queued,
so its first entry is the task queued longest ago on it (a receipt's claim or a retried dead letter
carries an older grab time than tasks queued before it: the reconciler's measure, not an exact
minimum).

One call instead of one XRANGE per stream, as backlog.lua. Read-only, so atomicity does not matter.
--]]
local best, bestKey, bestAt
for i = 1, #KEYS do
  local first = redis.call('XRANGE', KEYS[i], '-', '+', 'COUNT', 1)[1]
  if first then
    local fields = first[2]
    for j = 1, #fields, 2 do
      if fields[j] == 't' then
        local at = tonumber(fields[j + 1])
        if not bestAt or at < bestAt then
          best, bestKey, bestAt = first, KEYS[i], at
        end
      end
    end
  end
end
if not best then return {} end
local reply = {bestKey, best[1]}
for _, value in ipairs(best[2]) do
  table.insert(reply, value)
end
return reply
