--[[
oldest.lua: the payout tasks first in line on their streams that were grabbed before a time.

KEYS[1..n] payout streams  hb:{sNNN}:payouts, all on one server (and, on a cluster, one slot)
ARGV[1] grabbed before (ms)  ARGV[2] the most tasks to answer

Reply: one {stream, entry id, field, value, ...} per stream whose first entry's grab time (field t)
is before ARGV[1], at most ARGV[2]; {} when there is none. A stream holds exactly the tasks not yet
acknowledged (ack.lua keeps it so), in the order they were queued, so its first entry is the task
queued longest ago on it (a receipt's claim or a retried dead letter may carry an older grab time
than the tasks queued before it: the reconciler's measure, not an exact minimum).

One call instead of one XRANGE per stream, as backlog.lua. Read-only, so atomicity does not matter.
--]]
local before = tonumber(ARGV[1])
local max = tonumber(ARGV[2])
local reply = {}
for i = 1, #KEYS do
  if #reply >= max then break end
  local first = redis.call('XRANGE', KEYS[i], '-', '+', 'COUNT', 1)[1]
  if first then
    local fields = first[2]
    for j = 1, #fields, 2 do
      if fields[j] == 't' and tonumber(fields[j + 1]) < before then
        local entry = {KEYS[i], first[1]}
        for _, value in ipairs(fields) do
          table.insert(entry, value)
        end
        table.insert(reply, entry)
      end
    end
  end
end
return reply
